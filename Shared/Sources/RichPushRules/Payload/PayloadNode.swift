/// A value of a notification's payload as the rules read it: richpush's parsed JSON on one side, the `userInfo`
/// dictionary an extension gets on the other. The rules ask only these questions, so both read a payload alike.
public protocol PayloadNode {
    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    func member(_ key: String) -> Self?
    /// The members of an object in the order the payload gives them (a dictionary's order where it has none); nil
    /// for a value that is not an object.
    var members: [(key: String, value: Self)]? { get }
    /// The elements of an array; nil for a value that is not an array.
    var elements: [Self]? { get }
    /// The string a value is; nil for any other value.
    var string: String? { get }
    /// Whether the value is an object (asked on every step of a key path: cheaper than ``members``).
    var isObject: Bool { get }
}

extension PayloadNode {
    public var isObject: Bool { members != nil }
}
