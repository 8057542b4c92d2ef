extension SDKProfile {
    /// Firebase Messaging's `FIRMessagingExtensionHelper`.
    ///
    /// Read in firebase/firebase-ios-sdk, FirebaseMessaging/Sources/FIRMessagingExtensionHelper.m at
    /// 6c272ea7e4427d3f91564498da5eeb4d6069124b (the download code is the same at 021d95703a75cc34041e90bb9b5186a61f831ee4).
    public static let firebase = SDKProfile(
        name: "firebase", title: "Firebase (FIRMessagingExtensionHelper)",
        source: "firebase/firebase-ios-sdk FirebaseMessaging/Sources/FIRMessagingExtensionHelper.m @ 6c272ea7",
        // `content.userInfo[kPayloadOptionsName][kPayloadOptionsImageURLName]`: fcm_options.image, nothing else.
        imageSource: .keyPath("fcm_options.image"),
        // `[NSURL URLWithString:]` then `downloadTaskWithURL:`: no scheme check of its own; ATS blocks http.
        schemes: .urlSession,
        // `[NSURLSessionConfiguration defaultSessionConfiguration]`: no timeout set, NSURLSession's 60 s default.
        timeout: .fixed(.seconds(60)),
        // The completion handler looks only at `error`: no Content-Type, size or magic-byte check.
        contentTypeRule: .ignored, size: .unchecked,
        // `[temporaryFileLocation.path stringByAppendingString:@"." + [response.suggestedFilename pathExtension]]`.
        naming: .suggestedFilename(.extensionOnly),
        // `self.bestAttemptContent.attachments = @[ attachment ]`: one.
        plurality: .first)
}
