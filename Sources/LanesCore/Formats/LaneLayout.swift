/// A lane's layout in its board file, for a store that keeps boards outside files (PostgreSQL):
/// what its export needs to write the lane back as it was imported.
public struct LaneLayout: Hashable, Sendable {
    /// The heading's marker as written (`## `, `# `); nil: the file's default.
    public var heading: String?
    /// Obsidian: the marker of a new card in the lane (`- [ ] `, `* `, `1. [ ] `); nil: the default.
    public var cardStyle: String?
    /// Obsidian: the lines from where Markdown ends the lane's list to the next lane, verbatim.
    public var afterList: [String]

    public init(heading: String? = nil, cardStyle: String? = nil, afterList: [String] = []) {
        self.heading = heading
        self.cardStyle = cardStyle
        self.afterList = afterList
    }
}

extension CardStyle {
    /// The style a new card's marker text shows (`* [ ] ` → `* ` with a box).
    init(marker: String) {
        if marker.hasSuffix("[ ] ") {
            self.init(bullet: String(marker.dropLast(4)), checkBox: true)
        } else {
            self.init(bullet: marker, checkBox: false)
        }
    }
}

extension BoardFileInfo {
    /// Each lane's layout, for lanes with these titles in this order (Obsidian: every lane's heading
    /// and card style; taskell: none).
    public func laneLayouts(titles: [String]) -> [LaneLayout] {
        let keys = ColumnKey.keys(titles: titles)
        return keys.map { key in
            let spacing = columnSpacing[key]
            guard dialect == .obsidian else { return LaneLayout() }
            return LaneLayout(
                heading: spacing?.heading ?? headingPrefix,
                cardStyle: (spacing?.cardStyle ?? cardStyle).text(done: false),
                afterList: spacing?.afterList ?? [])
        }
    }

    /// Sets each lane's layout (as `laneLayouts` gives it) for lanes with these titles in this
    /// order: the first lane's heading and card style become the file's, the rest exceptions.
    public mutating func setLaneLayouts(_ layouts: [LaneLayout], titles: [String]) {
        guard dialect == .obsidian else { return }
        if let first = layouts.first {
            if let heading = first.heading { headingPrefix = heading }
            if let style = first.cardStyle { cardStyle = CardStyle(marker: style) }
        }
        for (key, layout) in zip(ColumnKey.keys(titles: titles), layouts) {
            var spacing = columnSpacing[key] ?? ColumnSpacing()
            spacing.heading = layout.heading.flatMap { $0 == headingPrefix ? nil : $0 }
            spacing.cardStyle = layout.cardStyle.map(CardStyle.init(marker:)).flatMap { $0 == cardStyle ? nil : $0 }
            spacing.afterList = layout.afterList.isEmpty ? nil : layout.afterList
            columnSpacing[key] = spacing == ColumnSpacing() ? nil : spacing
        }
    }
}

extension ColumnKey {
    /// The key of each of these titles, in order.
    static func keys(titles: [String]) -> [ColumnKey] {
        var seen: [String: Int] = [:]
        return titles.map { title in
            let k = seen[title, default: 0]
            seen[title] = k + 1
            return ColumnKey(title: title, occurrence: k)
        }
    }
}
