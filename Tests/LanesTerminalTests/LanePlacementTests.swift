import DragKit
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesTerminal

@Suite("Lane placement: cells sorted from the scan, the cache, and bands measured only as far as the screen")
struct LanePlacementTests {
    /// Title pieces: lane tags in several cases, a tag glued to a word, blanks, a non-ASCII letter.
    static let pieces = [
        "#", " ", "\t", "team0", "Team1", "TEAM2", " #team0", " #team1", " #TEAM2", "word", "é", "#é", "ops", " #ops",
    ]
    static let laneSets: [[String]] = [
        ["team0", "Team1", "team2"], ["é", "ops"], ["word", "team1"], ["ops", "team2", "team0"],
    ]

    /// Whole columns (several chunks long): the two-pass placement gives every lane's indices as
    /// `Swimlanes.cells` does, the cards carrying another lane's tag as `Swimlanes.placement`, and
    /// each cell's list holds exactly its cards.
    @Test(arguments: 0..<4)
    func aWholeColumnIsPlacedAsSwimlanesPlacesIt(set: Int) throws {
        let lanes = try Swimlanes(Self.laneSets[set])
        var random = SplitMix64(seed: UInt64(200 + set))
        var next: UInt64 = 1
        let columns = [0, 1, 700, 2600].map { size in
            Column(
                title: "C\(size)",
                cards: (0..<size).map { _ in
                    let n = Int(random.next() % 7)
                    let title = (0..<n).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }
                        .joined()
                    defer { next += 1 }
                    return Card(id: CardID(next), title: title)
                })
        }
        let board = Board(columns: columns)
        let expected = lanes.cells(of: board)
        let placed = LanePlacementCache().lanes(of: board, lanes)
        for (c, column) in board.columns.enumerated() {
            #expect(placed[c].indices == expected.map { $0[c] }, "column \(c)")
            var alsoIn: [CardID: [Int]] = [:]
            for card in column.cards where !lanes.placement(ofTitle: card.title).alsoIn.isEmpty {
                alsoIn[card.id] = lanes.placement(ofTitle: card.title).alsoIn
            }
            #expect(placed[c].alsoIn == alsoIn, "column \(c)")
            for lane in 0...lanes.count {
                #expect(placed[c].cards(inLane: lane).map(\.id) == expected[lane][c].map { column.cards[$0].id })
            }
        }
    }

    @Test func aColumnsLanesAreItsCardsInOrder_andTheCacheKeepsThemUntilTheColumnChanges() throws {
        var board = laneBoard()
        let lanes = try #require(board.acceptRules.swimlanes)
        let cache = LanePlacementCache()
        let first = cache.lanes(of: board, lanes)
        #expect(first.map(\.indices) == [[[0], [2], [1]], [[0], [], []], [[], [], []]])
        #expect(first[0].cards(inLane: 1).map(\.title) == ["API #backend"])
        #expect(first[1].cards(inLane: 0).map(\.title) == ["Ship #backend #frontend"])
        #expect(first[1].alsoIn == [board.columns[1].cards[0].id: [1]])
        // Unchanged columns come back as they were (their cell lists already made); a changed one is placed again.
        board.columns[0].cards[1].title = "Write docs #backend"
        let second = cache.lanes(of: board, lanes)
        #expect(second[1].cards(inLane: 0).sharesStorage(with: first[1].cards(inLane: 0), in: 0..<1))
        #expect(second[0].indices == [[0], [1, 2], []])
        #expect(second[0].cards(inLane: 1).map(\.title) == ["Write docs #backend", "API #backend"])
    }

    /// A layout sorts the lanes of the columns it shows and no other; another column's are
    /// sorted when something reads them, and are then `Swimlanes.cells`' (as the counts were all along).
    @Test func aLayoutSortsOnlyTheColumnsItShows() throws {
        func card(_ c: Int, _ i: Int) -> Card {
            let tag = i % 4 == 3 ? "" : " #l\((i + c) % 3)"
            return Card(id: CardID(UInt64(c * 1000 + i + 1)), title: "Card \(c)-\(i)" + tag)
        }
        var board = Board(
            columns: (0..<8).map { c in Column(title: "Column \(c)", cards: (0..<300).map { card(c, $0) }) })
        let lanes = try Swimlanes(["l0", "l1", "l2"])
        board.acceptRules.swimlanes = lanes
        let cache = LayoutCache()
        let layout = ScreenLayout(
            board: board, size: Size(width: 120, height: 40), page: 0, scroll: Array(repeating: 0, count: 8),
            cache: cache, laneView: LaneViewState())
        let grid = try #require(layout.lanes)
        let shown = Set(layout.columns.map { (c: ColumnDraggable) in c.section })
        #expect(!shown.isEmpty && shown.count < 8)
        let placed = cache.lanePlacement.lanes(of: board, lanes)
        #expect(placed.indices.filter { placed[$0].indicesMade } == shown.sorted())
        let expected = lanes.cells(of: board)
        for lane in 0...lanes.count {
            #expect(grid.count(lane: lane) == expected[lane].reduce(0) { $0 + $1.count })
            for c in 0..<8 { #expect(grid.placement[lane][c] == expected[lane][c], "lane \(lane), column \(c)") }
        }
        #expect(placed.allSatisfy { (c: ColumnLanes) in c.indicesMade })
    }

    /// 3 columns of 400 cards in 4 lanes, some titles long enough to wrap: the reference
    /// measures every cell to its end.
    static func tallBoard() -> Board {
        var next: UInt64 = 1
        var b = Board(
            columns: (0..<3).map { c in
                Column(
                    title: "C\(c)",
                    cards: (0..<400).map { i in
                        defer { next += 1 }
                        let words = i % 7 == 0 ? " with a title long enough to wrap over two or three lines" : ""
                        return Card(id: CardID(next), title: "Card \(c)-\(i)\(words) #l\((i * (c + 1)) % 5)")
                    })
            })
        b.acceptRules.swimlanes = try! Swimlanes(["l0", "l1", "l2", "l3"])
        return b
    }

    @Test(arguments: [0, 37, 400, 1500, 100_000])
    func bandsAreExactWhereTheScreenIsAndTopsAreExactWhenAsked(scroll: Int) throws {
        let board = Self.tallBoard()
        var state = LaneViewState()
        state.scroll = scroll
        state.collapsed = ["l2"]
        let size = Size(width: 100, height: 30)
        let layout = ScreenLayout(
            board: board, size: size, page: 0, scroll: [0, 0, 0], cache: LayoutCache(), laneView: state)
        let grid = try #require(layout.lanes)
        // The reference: every cell of every lane measured to its end.
        let m = LayoutMetrics()
        let heights = grid.lanes.map { lane -> LaneBands.Lane in
            let tallest =
                layout.columns.map { c in
                    ColumnMetrics(
                        cards: CardList(grid.placement[lane][c.section].map { board.columns[c.section].cards[$0] }),
                        width: c.frame.width, maxTitleLines: m.maxTitleLines
                    ).contentHeight
                }.max() ?? 0
            return LaneBands.Lane(contentHeight: tallest, collapsed: lane == 2)
        }
        let exact = LaneBands(area: grid.layout.area, lanes: heights, scroll: scroll, minimumBody: 3)
        #expect(grid.layout.scroll == exact.scroll)
        // What the screen shows is the reference's, row for row (a band running on below the
        // screen and the reach has only a lower bound for its height).
        for (k, band) in grid.layout.bands.enumerated() where band.header.height > 0 || band.body.height > 0 {
            var shown = band
            if k >= grid.exactBands {
                #expect(band.height <= exact.bands[k].height)
                shown.height = exact.bands[k].height
            }
            #expect(shown == exact.bands[k], "band \(k)")
        }
        #expect(grid.layout.bands.prefix(grid.exactBands) == exact.bands.prefix(grid.exactBands))
        for k in grid.lanes.indices {
            #expect(grid.top(ofBand: k) == exact.bands[k].top, "top of band \(k)")
        }
        // Cells exist for the bands laid out, down past the screen; their frames are the reference's.
        #expect(grid.laidOutBands >= grid.exactBands && grid.laidOutBands <= grid.lanes.count)
        #expect(grid.cells.count == grid.laidOutBands * layout.columns.count)
        if scroll == 0 {
            #expect(grid.laidOutBands < grid.lanes.count)  // the 400-card lanes reach far below the screen
        }
        // No band starting below the screen and the reach was laid out.
        for k in 0..<grid.laidOutBands {
            #expect(exact.bands[k].top < exact.scroll + grid.layout.area.height + LaneGrid.reach)
        }
    }
}
