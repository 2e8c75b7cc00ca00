import DragKit

/// Field-wise three-way merge of one card's content (its identity is the caller's business).
public enum CardMerge {
    /// What joins two titles edited two ways: both are kept, ours first.
    public static let titleJoiner = " ⟷ "
    /// The description line that keeps the other side's due date when both sides set one.
    static func dueElsewhereLine(_ due: String) -> String { "Due elsewhere: " + due }

    /// The merged content, and for a collision the words saying what was kept (nil when clean).
    public static func merge(base b: Card, ours o: Card, theirs t: Card) -> (card: Card, collision: String?) {
        var card = o
        var notes: [String] = []
        // Title and tags: the text without tags and the tag list merge separately.
        if o.title != b.title && t.title != b.title && o.title != t.title {
            let bt = Card.retagged(title: b.title, tags: []), ot = Card.retagged(title: o.title, tags: []),
                tt = Card.retagged(title: t.title, tags: [])
            let tags = mergeList(base: b.tags, ours: o.tags, theirs: t.tags)
            var text: String
            if ot == bt {
                text = tt
            } else if tt == bt || ot == tt {
                text = ot
            } else {
                text = ot + titleJoiner + tt
                notes.append("both titles kept")
            }
            if text == ot && tags == o.tags {
                card.title = o.title
            } else if text == tt && tags == t.tags {
                card.title = t.title
            } else {
                card.title = Card.retagged(title: text, tags: tags)
            }
        } else if o.title == b.title {
            card.title = t.title
        }
        var description = mergeList(base: b.descriptionLines, ours: o.descriptionLines, theirs: t.descriptionLines)
        if o.due != b.due && t.due != b.due && o.due != t.due {
            card.due = o.due
            if let due = t.due {
                description.append(dueElsewhereLine(due))
                notes.append("this side's due date kept, the other's in the description")
            } else {
                notes.append("this side's due date kept")
            }
        } else if o.due == b.due {
            card.due = t.due
        }
        card.descriptionLines = description
        card.subtasks = mergeList(base: b.subtasks, ours: o.subtasks, theirs: t.subtasks) { a, c in
            (a.title, a.done ? 1 : 0) < (c.title, c.done ? 1 : 0)
        }
        card.extraLines = mergeList(base: b.extraLines, ours: o.extraLines, theirs: t.extraLines)
        if o.done == b.done {
            card.done = t.done
        } else if t.done != b.done && o.done != t.done {
            notes.append("this side's done mark kept")
        }
        return (card, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}

/// Three-way merge of one column's own settings (cards aside).
enum ColumnMerge {
    static func merge(base b: Column, ours o: Column, theirs t: Column) -> (column: Column, collision: String?) {
        var column = o
        column.cards = []
        var notes: [String] = []
        if o.title == b.title {
            column.title = t.title
        } else if t.title != b.title && o.title != t.title {
            notes.append("renamed here to “\(o.title)” and elsewhere to “\(t.title)”: “\(o.title)” kept")
        }
        if o.wipLimit == b.wipLimit {
            column.wipLimit = t.wipLimit
        } else if t.wipLimit != b.wipLimit && o.wipLimit != t.wipLimit {
            notes.append(
                "WIP limit set here to \(o.wipLimit.map(String.init) ?? "none") and elsewhere to \(t.wipLimit.map(String.init) ?? "none"): \(o.wipLimit.map(String.init) ?? "none") kept"
            )
        }
        column.extraLines = mergeList(base: b.extraLines, ours: o.extraLines, theirs: t.extraLines)
        return (column, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}
