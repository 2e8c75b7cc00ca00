import DragKit
import LanesCore
import SeededRandom

/// Realistic boards for the benchmarks, written as taskell Markdown.
///
/// Titles are 2–14 words (some long enough to wrap over several lines), about 1 in 8
/// has CJK text, 1 in 14 an emoji (some with a variation selector), some carry a ticket
/// number or `#tags`; about 1 in 6 cards has a description, 1 in 9 sub-tasks and
/// 1 in 20 a due date. Cards are spread unevenly over 8 columns; one has a WIP limit.
enum BoardGenerator {
    static let words = """
        fix add update remove refactor migrate document investigate review deploy test flaky login \
        signup password reset email notification queue worker cache invalidation database index \
        query slow timeout retry backoff API endpoint pagination search filter sort export import \
        CSV PDF report dashboard chart metrics logging tracing alert on-call runbook incident \
        postmortem release changelog version bump dependency upgrade security audit token session \
        cookie header CORS rate limit throttle billing invoice subscription trial coupon refund \
        payment webhook integration Slack GitHub CI pipeline build cache docker image kubernetes \
        helm chart staging production rollback feature flag experiment onboarding tooltip modal \
        dark mode accessibility keyboard focus screen reader translation locale timezone date \
        picker calendar upload avatar thumbnail resize crop storage bucket backup restore cleanup \
        the a of for in on with when after before without into from user admin customer team
        """.split(separator: " ").map(String.init)

    static let cjk = [
        "修复登录问题", "更新文档", "性能优化", "数据库迁移", "用户反馈", "界面调整", "テスト追加",
        "バグ修正", "設定画面", "検索機能", "리팩터링", "배포 준비", "全角文字の表示", "日本語の入力",
    ]
    static let emoji = ["🚀", "🐛", "🔥", "✅", "⚠️", "📦", "🎉", "🔒", "💡", "⏳", "📝", "🧪"]
    static let tags = ["#bug", "#feature", "#chore", "#ux", "#backend", "#frontend", "#infra", "#p1", "#p2"]
    static let columnTitles = ["Backlog", "Ready", "In progress", "Review", "Testing", "Blocked", "Done", "Archive"]
    /// Share of the cards each column gets (sums to 100).
    static let weights = [30, 12, 8, 6, 6, 3, 25, 10]

    static func title(_ rng: inout SplitMix64, index: Int) -> String {
        var parts: [String] = []
        let n = Int.random(in: 2...14, using: &rng)
        for _ in 0..<n { parts.append(words.randomElement(using: &rng)!) }
        parts[0] = parts[0].prefix(1).uppercased() + parts[0].dropFirst()
        if Int.random(in: 0..<8, using: &rng) == 0 {
            parts.insert(cjk.randomElement(using: &rng)!, at: Int.random(in: 0...parts.count, using: &rng))
        }
        if Int.random(in: 0..<14, using: &rng) == 0 {
            parts.insert(emoji.randomElement(using: &rng)!, at: Int.random(in: 0...parts.count, using: &rng))
        }
        if Int.random(in: 0..<3, using: &rng) == 0 { parts.insert("LAN-\(index + 1)", at: 0) }
        if Int.random(in: 0..<5, using: &rng) == 0 { parts.append(tags.randomElement(using: &rng)!) }
        return parts.joined(separator: " ")
    }

    static func sentence(_ rng: inout SplitMix64) -> String {
        let n = Int.random(in: 5...20, using: &rng)
        return (0..<n).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ") + "."
    }

    static func board(cards total: Int, seed: UInt64 = 42) -> Board {
        var rng = SplitMix64(seed: seed &+ UInt64(total))
        var counts = weights.map { total * $0 / 100 }
        counts[0] += total - counts.reduce(0, +)
        var columns: [Column] = []
        var id: UInt64 = 1
        for (k, name) in columnTitles.enumerated() {
            var cards: [Card] = []
            cards.reserveCapacity(counts[k])
            for _ in 0..<counts[k] {
                var card = Card(id: CardID(id), title: title(&rng, index: Int(id)))
                id += 1
                if Int.random(in: 0..<20, using: &rng) == 0 {
                    card.due =
                        "2025-\(String(format2: Int.random(in: 1...12, using: &rng)))-\(String(format2: Int.random(in: 1...28, using: &rng)))"
                }
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    card.descriptionLines = (0..<Int.random(in: 1...3, using: &rng)).map { _ in sentence(&rng) }
                }
                if Int.random(in: 0..<9, using: &rng) == 0 {
                    card.subtasks = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                        Subtask(sentence(&rng), done: Bool.random(using: &rng))
                    }
                }
                cards.append(card)
            }
            columns.append(Column(title: name, cards: CardList(cards), wipLimit: name == "Review" ? 5 : nil))
        }
        return Board(columns: columns)
    }

    /// The board as taskell Markdown bytes.
    static func markdown(cards: Int) -> [UInt8] {
        Array(BoardFormat.serialize(board(cards: cards), as: .taskell).utf8)
    }

    /// The large-board shape of issue #16: 4 even columns, every card a short title and a
    /// one-line description (about 42 bytes a card, 42 MB at 1,000,000 cards), as taskell Markdown.
    /// Written straight to bytes: building a million-card `Board` first would cost the memory
    /// this shape is meant to measure in the app.
    static func leanMarkdown(cards total: Int, seed: UInt64 = 7) -> [UInt8] {
        var rng = SplitMix64(seed: seed &+ UInt64(total))
        var out: [UInt8] = []
        out.reserveCapacity(total * 44 + 64)
        let titles = ["Backlog", "Doing", "Review", "Done"]
        var id = 1
        for (k, name) in titles.enumerated() {
            if k > 0 { out.append(10) }
            out += Array("## \(name)\n\n".utf8)
            let count = total / 4 + (k < total % 4 ? 1 : 0)
            for _ in 0..<count {
                let a = words.randomElement(using: &rng)!, b = words.randomElement(using: &rng)!
                let c = words.randomElement(using: &rng)!
                out += Array("- \(a) \(b) \(id)\n    > \(c) note\n".utf8)
                id += 1
            }
        }
        return out
    }
}

extension String {
    init(format2 n: Int) { self = n < 10 ? "0\(n)" : "\(n)" }
}
