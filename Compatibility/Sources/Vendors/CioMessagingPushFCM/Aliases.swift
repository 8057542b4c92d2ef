import CioMessagingPush

// What CioMessagingPushFCM re-exports of CioMessagingPush (Sources/MessagingPushFCM/Aliases.swift at cf4926c3), so an
// extension that imports only CioMessagingPushFCM names them.
public typealias MessagingPush = CioMessagingPush.MessagingPush
public typealias MessagingPushConfigBuilder = CioMessagingPush.MessagingPushConfigBuilder
public typealias MessagingPushConfigOptions = CioMessagingPush.MessagingPushConfigOptions
