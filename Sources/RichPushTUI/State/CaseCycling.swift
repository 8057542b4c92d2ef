/// A header key that cycles a setting: the next case, after the last the first.
extension CaseIterable where Self: Equatable {
    var cycled: Self {
        let all = Array(Self.allCases)
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}
