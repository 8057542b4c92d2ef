import CioMessagingPush

// What CioMessagingPushAPN re-exports of CioMessagingPush (Sources/MessagingPushAPN/Aliases.swift at cf4926c3), so an
// extension that imports only CioMessagingPushAPN names them.
public typealias MessagingPush = CioMessagingPush.MessagingPush
public typealias MessagingPushConfigBuilder = CioMessagingPush.MessagingPushConfigBuilder
public typealias MessagingPushConfigOptions = CioMessagingPush.MessagingPushConfigOptions
