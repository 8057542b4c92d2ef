@_exported import UserNotifications
