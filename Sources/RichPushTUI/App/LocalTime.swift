import Glibc

/// The local time of day, read once at start; arrival times are counted from it.
enum LocalTime {
    static func secondsSinceMidnight() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Double(parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec) + Double(now.tv_nsec) / 1e9
    }
}
