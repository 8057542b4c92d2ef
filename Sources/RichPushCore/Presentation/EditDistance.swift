/// How far apart two names are, for "did you mean": insertions, deletions and swaps of neighbouring letters count 1
/// (optimal string alignment, so `dealy` is one edit from `delay`), a replaced letter counts `replacement`. Used by the
/// `aps` key hints and the fixture CDN's fault names.
public enum EditDistance {
    /// Edits from `a` to `b`; past `limit`, `limit + 1` (the rest is not computed).
    public static func between<Element: Equatable>(
        _ a: [Element], _ b: [Element], replacement: Int = 1, limit: Int = .max - 1
    ) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : replacement
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
