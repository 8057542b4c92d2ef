// Firebase's umbrella module (`import Firebase`): under CocoaPods it brings FirebaseCore and, when the pod's
// Messaging subspec is installed, FirebaseMessaging (CoreOnly/Sources/Firebase.h @ 9f311f23 imports it
// `#if __has_include(<FirebaseMessaging/FirebaseMessaging.h>)`). Here both are always there.
@_exported import FirebaseCore
@_exported import FirebaseMessaging
