// What richpush shares with the compatibility package (Shared/): the table of types, the vendors' rules and the
// fallback reasons (RichPushRules), and the extension host's protocol with the process modes (RichPushHostProtocol).
// Every module of richpush that imports RichPushCore sees them.
@_exported import RichPushHostProtocol
@_exported import RichPushRules
