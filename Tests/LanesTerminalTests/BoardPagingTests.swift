import Testing
@testable import DragKit
import LanesTerminal

/// One line per page: `page N proto: area[rect]=item …`, then `overflow: …` when any.
func render<Item>(_ layout: PagedLayout<Item>, _ name: (Item) -> String) -> [String] {
    var lines = layout.pages.enumerated().map { i, page in
        "page \(i + 1) \(page.prototype): "
            + page.placements.map { "\($0.area)\($0.rect)=\(name($0.item))" }.joined(separator: " ")
    }
    if !layout.overflow.isEmpty { lines.append("overflow: " + layout.overflow.map(name).joined(separator: " ")) }
    return lines
}

func boardLayout(_ count: Int, _ width: Int, _ height: Int) -> [String] {
    render(BoardPaging().manager(items: Array(0..<count)).layout(in: Size(width: width, height: height))) { "#\($0)" }
}

@Suite struct PagedLayoutSizesTests {
    @Test func eightyByTwentyFourIsNarrowWithTwoColumns() {
        #expect(boardLayout(1, 80, 24) == ["page 1 narrow-2: c0[0,1 39x22]=#0"])
        #expect(
            boardLayout(3, 80, 24) == [
                "page 1 narrow-2: c0[0,1 39x22]=#0 c1[40,1 39x22]=#1",
                "page 2 narrow-2: c0[0,1 39x22]=#2",
            ])
        #expect(
            boardLayout(8, 80, 24) == [
                "page 1 narrow-2: c0[0,1 39x22]=#0 c1[40,1 39x22]=#1",
                "page 2 narrow-2: c0[0,1 39x22]=#2 c1[40,1 39x22]=#3",
                "page 3 narrow-2: c0[0,1 39x22]=#4 c1[40,1 39x22]=#5",
                "page 4 narrow-2: c0[0,1 39x22]=#6 c1[40,1 39x22]=#7",
            ])
        #expect(
            boardLayout(10, 80, 24) == [
                "page 1 narrow-2: c0[0,1 39x22]=#0 c1[40,1 39x22]=#1",
                "page 2 narrow-2: c0[0,1 39x22]=#2 c1[40,1 39x22]=#3",
                "page 3 narrow-2: c0[0,1 39x22]=#4 c1[40,1 39x22]=#5",
                "page 4 narrow-2: c0[0,1 39x22]=#6 c1[40,1 39x22]=#7",
                "page 5 narrow-2: c0[0,1 39x22]=#8 c1[40,1 39x22]=#9",
            ])
        #expect(
            boardLayout(25, 80, 24) == [
                "page 1 narrow-2: c0[0,1 39x22]=#0 c1[40,1 39x22]=#1",
                "page 2 narrow-2: c0[0,1 39x22]=#2 c1[40,1 39x22]=#3",
                "page 3 narrow-2: c0[0,1 39x22]=#4 c1[40,1 39x22]=#5",
                "page 4 narrow-2: c0[0,1 39x22]=#6 c1[40,1 39x22]=#7",
                "page 5 narrow-2: c0[0,1 39x22]=#8 c1[40,1 39x22]=#9",
                "page 6 narrow-2: c0[0,1 39x22]=#10 c1[40,1 39x22]=#11",
                "page 7 narrow-2: c0[0,1 39x22]=#12 c1[40,1 39x22]=#13",
                "page 8 narrow-2: c0[0,1 39x22]=#14 c1[40,1 39x22]=#15",
                "page 9 narrow-2: c0[0,1 39x22]=#16 c1[40,1 39x22]=#17",
                "page 10 narrow-2: c0[0,1 39x22]=#18 c1[40,1 39x22]=#19",
                "page 11 narrow-2: c0[0,1 39x22]=#20 c1[40,1 39x22]=#21",
                "page 12 narrow-2: c0[0,1 39x22]=#22 c1[40,1 39x22]=#23",
                "page 13 narrow-2: c0[0,1 39x22]=#24",
            ])
    }

    @Test func oneTwentyByFortyIsWideWithFourColumns() {
        #expect(boardLayout(1, 120, 40) == ["page 1 wide-4: c0[0,1 29x38]=#0"])
        #expect(boardLayout(3, 120, 40) == ["page 1 wide-4: c0[0,1 29x38]=#0 c1[30,1 29x38]=#1 c2[60,1 29x38]=#2"])
        #expect(
            boardLayout(8, 120, 40) == [
                "page 1 wide-4: c0[0,1 29x38]=#0 c1[30,1 29x38]=#1 c2[60,1 29x38]=#2 c3[90,1 29x38]=#3",
                "page 2 wide-4: c0[0,1 29x38]=#4 c1[30,1 29x38]=#5 c2[60,1 29x38]=#6 c3[90,1 29x38]=#7",
            ])
        #expect(
            boardLayout(10, 120, 40) == [
                "page 1 wide-4: c0[0,1 29x38]=#0 c1[30,1 29x38]=#1 c2[60,1 29x38]=#2 c3[90,1 29x38]=#3",
                "page 2 wide-4: c0[0,1 29x38]=#4 c1[30,1 29x38]=#5 c2[60,1 29x38]=#6 c3[90,1 29x38]=#7",
                "page 3 wide-4: c0[0,1 29x38]=#8 c1[30,1 29x38]=#9",
            ])
        #expect(
            boardLayout(25, 120, 40) == [
                "page 1 wide-4: c0[0,1 29x38]=#0 c1[30,1 29x38]=#1 c2[60,1 29x38]=#2 c3[90,1 29x38]=#3",
                "page 2 wide-4: c0[0,1 29x38]=#4 c1[30,1 29x38]=#5 c2[60,1 29x38]=#6 c3[90,1 29x38]=#7",
                "page 3 wide-4: c0[0,1 29x38]=#8 c1[30,1 29x38]=#9 c2[60,1 29x38]=#10 c3[90,1 29x38]=#11",
                "page 4 wide-4: c0[0,1 29x38]=#12 c1[30,1 29x38]=#13 c2[60,1 29x38]=#14 c3[90,1 29x38]=#15",
                "page 5 wide-4: c0[0,1 29x38]=#16 c1[30,1 29x38]=#17 c2[60,1 29x38]=#18 c3[90,1 29x38]=#19",
                "page 6 wide-4: c0[0,1 29x38]=#20 c1[30,1 29x38]=#21 c2[60,1 29x38]=#22 c3[90,1 29x38]=#23",
                "page 7 wide-4: c0[0,1 29x38]=#24",
            ])
    }

    @Test func twoHundredByFiftyIsWideWithEightColumns() {
        let row0 =
            "c0[0,1 24x48]=#0 c1[25,1 24x48]=#1 c2[50,1 24x48]=#2 c3[75,1 24x48]=#3 "
            + "c4[100,1 24x48]=#4 c5[125,1 24x48]=#5 c6[150,1 24x48]=#6 c7[175,1 24x48]=#7"
        let row1 =
            "c0[0,1 24x48]=#8 c1[25,1 24x48]=#9 c2[50,1 24x48]=#10 c3[75,1 24x48]=#11 "
            + "c4[100,1 24x48]=#12 c5[125,1 24x48]=#13 c6[150,1 24x48]=#14 c7[175,1 24x48]=#15"
        let row2 =
            "c0[0,1 24x48]=#16 c1[25,1 24x48]=#17 c2[50,1 24x48]=#18 c3[75,1 24x48]=#19 "
            + "c4[100,1 24x48]=#20 c5[125,1 24x48]=#21 c6[150,1 24x48]=#22 c7[175,1 24x48]=#23"
        #expect(boardLayout(1, 200, 50) == ["page 1 wide-8: c0[0,1 24x48]=#0"])
        #expect(boardLayout(3, 200, 50) == ["page 1 wide-8: c0[0,1 24x48]=#0 c1[25,1 24x48]=#1 c2[50,1 24x48]=#2"])
        #expect(boardLayout(8, 200, 50) == ["page 1 wide-8: " + row0])
        #expect(
            boardLayout(10, 200, 50) == ["page 1 wide-8: " + row0, "page 2 wide-8: c0[0,1 24x48]=#8 c1[25,1 24x48]=#9"])
        #expect(
            boardLayout(25, 200, 50) == [
                "page 1 wide-8: " + row0, "page 2 wide-8: " + row1, "page 3 wide-8: " + row2,
                "page 4 wide-8: c0[0,1 24x48]=#24",
            ])
    }

    @Test func fortyByTwentyIsOneFullWidthColumnPerPage() {
        #expect(boardLayout(1, 40, 20) == ["page 1 narrow-1: c0[0,1 40x18]=#0"])
        #expect(
            boardLayout(3, 40, 20) == [
                "page 1 narrow-1: c0[0,1 40x18]=#0",
                "page 2 narrow-1: c0[0,1 40x18]=#1",
                "page 3 narrow-1: c0[0,1 40x18]=#2",
            ])
        for count in [8, 10, 25] {
            #expect(boardLayout(count, 40, 20) == (0..<count).map { "page \($0 + 1) narrow-1: c0[0,1 40x18]=#\($0)" })
        }
    }

    @Test func noColumnsMakeNoPages() {
        #expect(boardLayout(0, 120, 40) == [])
    }

    @Test func wideColumnsAreCappedWhenFewFitAtTheMinimum() {
        var paging = BoardPaging()
        paging.minColumnWidth = 50
        let lines = render(paging.manager(items: [0, 1]).layout(in: Size(width: 120, height: 10))) { "#\($0)" }
        // (120+1)/(50+1) = 2 columns of (120-1)/2 = 59, capped at 40.
        #expect(lines == ["page 1 wide-2: c0[0,1 40x8]=#0 c1[41,1 40x8]=#1"])
    }
}

/// A column as the paging tests see it.
struct Col: Hashable, Sendable, CustomStringConvertible {
    var name: String
    var done = false
    var minWidth = 0
    var description: String { name }
}

func fixed(
    _ name: String, x: Int, width: Int, equivalence: String? = nil,
    accepts: (@Sendable (Col, Rect) -> Bool)? = nil
) -> LayoutArea<Col> {
    LayoutArea(
        name, equivalence: equivalence, frame: { s in Rect(x: x, y: 0, width: width, height: s.height) },
        accepts: accepts)
}

@Suite struct PagedLayoutValidatorTests {
    @Test func doneAreaTakesOnlyDoneColumnsAndOthersSkipIt() {
        let proto = LayoutPrototype<Col>(
            "work+done",
            areas: [
                fixed("w0", x: 0, width: 20) { c, _ in !c.done },
                fixed("w1", x: 21, width: 20) { c, _ in !c.done },
                fixed("done", x: 42, width: 20) { c, _ in c.done },
            ])
        let items = [Col(name: "a"), Col(name: "b"), Col(name: "c"), Col(name: "D", done: true), Col(name: "e")]
        let layout = PagedLayoutManager(items: items) { _, _ in proto }.layout(in: Size(width: 62, height: 5))
        #expect(
            render(layout) { $0.name } == [
                "page 1 work+done: w0[0,0 20x5]=a w1[21,0 20x5]=b",
                "page 2 work+done: w0[0,0 20x5]=c done[42,0 20x5]=D",
                "page 3 work+done: w0[0,0 20x5]=e",
            ])
        #expect(layout.pages[1]["done"] == Col(name: "D", done: true))
        #expect(layout.pages[1]["w1"] == nil)
        #expect(layout.page(containing: Col(name: "e")) == 2)
    }

    @Test func narrowAreaRefusesAWideColumnByItsRect() {
        let fits: @Sendable (Col, Rect) -> Bool = { c, r in c.minWidth <= r.width }
        let proto = LayoutPrototype<Col>(
            "slim+roomy",
            areas: [
                fixed("slim", x: 0, width: 20, accepts: fits),
                fixed("roomy", x: 21, width: 40, accepts: fits),
            ])
        let items = [Col(name: "W", minWidth: 30), Col(name: "n"), Col(name: "V", minWidth: 40)]
        let layout = PagedLayoutManager(items: items) { _, _ in proto }.layout(in: Size(width: 61, height: 3))
        #expect(
            render(layout) { $0.name } == [
                "page 1 slim+roomy: roomy[21,0 40x3]=W",
                "page 2 slim+roomy: slim[0,0 20x3]=n roomy[21,0 40x3]=V",
            ])
    }

    @Test func anItemNoAreaTakesOverflowsAndTheNextStartsOnTheSamePage() {
        let fits: @Sendable (Col, Rect) -> Bool = { c, r in c.minWidth <= r.width }
        let proto = LayoutPrototype<Col>(
            "two",
            areas: [
                fixed("l", x: 0, width: 20, accepts: fits),
                fixed("r", x: 21, width: 20, accepts: fits),
            ])
        let items = [Col(name: "a"), Col(name: "HUGE", minWidth: 99), Col(name: "b"), Col(name: "c")]
        let layout = PagedLayoutManager(items: items) { _, _ in proto }.layout(in: Size(width: 41, height: 3))
        // HUGE is refused by r after a, then by every area of the empty page 2: overflow; b takes page 2's l.
        #expect(
            render(layout) { $0.name } == [
                "page 1 two: l[0,0 20x3]=a",
                "page 2 two: l[0,0 20x3]=b r[21,0 20x3]=c",
                "overflow: HUGE",
            ])
        #expect(layout.page(containing: Col(name: "HUGE", minWidth: 99)) == nil)
    }

    @Test func aPrototypeWithoutAreasOverflowsEverythingAndEnds() {
        let layout = PagedLayoutManager(items: [1, 2, 3]) { _, _ in LayoutPrototype<Int>("empty", areas: []) }
            .layout(in: Size(width: 80, height: 24))
        #expect(render(layout) { "#\($0)" } == ["overflow: #1 #2 #3"])
    }

    @Test func areasEmptyAtTheContainerSizeTakeNothing() {
        let proto = LayoutPrototype<Int>(
            "half",
            areas: [
                LayoutArea("gone", frame: { s in Rect(x: 0, y: 0, width: s.width - 60, height: s.height) }),
                LayoutArea("main", frame: { s in Rect(x: 0, y: 0, width: s.width, height: s.height) }),
            ])
        let layout = PagedLayoutManager(items: [7]) { _, _ in proto }.layout(in: Size(width: 50, height: 2))
        #expect(render(layout) { "#\($0)" } == ["page 1 half: main[0,0 50x2]=#7"])
    }

    @Test func theStrategyCanOfferADifferentPrototypePerPage() {
        let manager = PagedLayoutManager(items: Array(0..<4)) { page, size in
            page == 0
                ? LayoutPrototype<Int>(
                    "lead",
                    areas: [LayoutArea("all", frame: { s in Rect(x: 0, y: 0, width: s.width, height: s.height) })])
                : BoardPaging().prototype(for: size)
        }
        #expect(
            render(manager.layout(in: Size(width: 80, height: 4))) { "#\($0)" } == [
                "page 1 lead: all[0,0 80x4]=#0",
                "page 2 narrow-2: c0[0,1 39x2]=#1 c1[40,1 39x2]=#2",
                "page 3 narrow-2: c0[0,1 39x2]=#3",
            ])
    }

    @Test func boardPagingPassesItsValidatorToEveryColumnArea() {
        let manager = BoardPaging().manager(items: [Col(name: "a"), Col(name: "W", minWidth: 30), Col(name: "b")]) {
            c, r in c.minWidth <= r.width
        }
        // 120 wide: four areas of 29 cells; W needs 30, so it leaves page 1 and overflows from page 2.
        let layout = manager.layout(in: Size(width: 120, height: 10))
        #expect(
            render(layout) { $0.name } == [
                "page 1 wide-4: c0[0,1 29x8]=a",
                "page 2 wide-4: c0[0,1 29x8]=b",
                "overflow: W",
            ])
        // 80 wide: narrow areas of 39 take it.
        #expect(
            render(manager.layout(in: Size(width: 80, height: 10))) { $0.name } == [
                "page 1 narrow-2: c0[0,1 39x8]=a c1[40,1 39x8]=W",
                "page 2 narrow-2: c0[0,1 39x8]=b",
            ])
    }
}

@Suite struct PagedLayoutTransformTests {
    let wide = Size(width: 120, height: 40)
    let narrow = Size(width: 80, height: 24)

    func layout(_ count: Int, _ size: Size) -> PagedLayout<Int> {
        BoardPaging().manager(items: Array(0..<count)).layout(in: size)
    }

    @Test func shrinkingKeepsAnItemInItsEquivalentSlotWhenTheCanonicalPagesDo() {
        let before = layout(10, wide)
        #expect(before.page(containing: 5) == 1)
        #expect(before.placement(of: 5)?.area == "c1")
        let (after, page) = before.transformed(to: narrow, keeping: 5)
        #expect(page == 2)
        #expect(after.placement(of: 5)?.area == "c1")
        #expect(after.placement(of: 5)?.rect == Rect(x: 40, y: 1, width: 39, height: 22))
        #expect(render(after) { "#\($0)" } == render(layout(10, narrow)) { "#\($0)" })
    }

    @Test func shrinkingWithoutAnEquivalentSlotFallsBackToTheCanonicalPage() {
        let (after, page) = layout(10, wide).transformed(to: narrow, keeping: 6)
        #expect(page == 3)
        #expect(after.pages[3].items == [6, 7])
        #expect(render(after) { "#\($0)" } == render(layout(10, narrow)) { "#\($0)" })
    }

    @Test func growingShiftsThePageBreakSoTheItemStaysInItsSlot() {
        let before = layout(10, narrow)
        #expect(before.placement(of: 3)?.area == "c1")
        let (after, page) = before.transformed(to: wide, keeping: 3)
        #expect(page == 1)
        #expect(
            render(after) { "#\($0)" } == [
                "page 1 wide-4: c0[0,1 29x38]=#0 c1[30,1 29x38]=#1",
                "page 2 wide-4: c0[0,1 29x38]=#2 c1[30,1 29x38]=#3 c2[60,1 29x38]=#4 c3[90,1 29x38]=#5",
                "page 3 wide-4: c0[0,1 29x38]=#6 c1[30,1 29x38]=#7 c2[60,1 29x38]=#8 c3[90,1 29x38]=#9",
            ])
    }

    @Test func explicitEquivalenceKeysMapAreasWithDifferentNames() {
        let manager = PagedLayoutManager(items: Array(0..<6)) { _, size in
            size.width < 100
                ? LayoutPrototype<Int>(
                    "two",
                    areas: [
                        LayoutArea("left", frame: { _ in Rect(x: 0, y: 0, width: 10, height: 1) }),
                        LayoutArea(
                            "right", equivalence: "last", frame: { _ in Rect(x: 10, y: 0, width: 10, height: 1) }),
                    ])
                : LayoutPrototype<Int>(
                    "three",
                    areas: [
                        LayoutArea("a", frame: { _ in Rect(x: 0, y: 0, width: 10, height: 1) }),
                        LayoutArea("b", frame: { _ in Rect(x: 10, y: 0, width: 10, height: 1) }),
                        LayoutArea("c", equivalence: "last", frame: { _ in Rect(x: 20, y: 0, width: 10, height: 1) }),
                    ])
        }
        let before = manager.layout(in: Size(width: 50, height: 1))
        #expect(before.placement(of: 3)?.area == "right")
        let (after, page) = before.transformed(to: Size(width: 150, height: 1), keeping: 3)
        #expect(page == 1)
        #expect(
            render(after) { "#\($0)" } == [
                "page 1 three: a[0,0 10x1]=#0",
                "page 2 three: a[0,0 10x1]=#1 b[10,0 10x1]=#2 c[20,0 10x1]=#3",
                "page 3 three: a[0,0 10x1]=#4 b[10,0 10x1]=#5",
            ])
    }

    @Test func theTransformsAnchorGivesTheSamePagesAgain() {
        let before = layout(10, narrow)
        let (after, _) = before.transformed(to: wide, keeping: 3)
        #expect(after.anchor == LayoutAnchor(item: 3, equivalence: "c1"))
        let again = before.manager.layout(in: wide, anchoredBy: after.anchor)
        #expect(render(again) { "#\($0)" } == render(after) { "#\($0)" })
        #expect(again.anchor == after.anchor)
        // Without an anchor, or with one the canonical pages satisfy, the pages are the canonical ones.
        #expect(
            render(before.manager.layout(in: wide, anchoredBy: nil)) { "#\($0)" }
                == render(layout(10, wide)) { "#\($0)" })
        let canonical = before.manager.layout(in: wide, anchoredBy: LayoutAnchor(item: 5, equivalence: "c1"))
        #expect(canonical.anchor == nil)
        #expect(render(canonical) { "#\($0)" } == render(layout(10, wide)) { "#\($0)" })
    }

    @Test func aTransformThatCannotKeepTheAreaLeavesNoAnchor() {
        // Item 6 sits in c2 of a wide page; narrow pages have no c2.
        let (after, page) = layout(10, wide).transformed(to: narrow, keeping: 6)
        #expect(page == 3)
        #expect(after.anchor == nil)
        #expect(
            layout(10, wide).transformed(to: narrow, keeping: 5).layout.anchor == nil, "canonical pages already keep it"
        )
    }

    @Test func keepingAnItemOnNoPageGivesTheCanonicalLayoutAndNoPage() {
        let (after, page) = layout(3, wide).transformed(to: narrow, keeping: 42)
        #expect(page == nil)
        #expect(render(after) { "#\($0)" } == render(layout(3, narrow)) { "#\($0)" })
    }

    @Test func theKeptItemIsOnScreenAfterAnyResize() {
        let sizes = [
            Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 50),
            Size(width: 40, height: 20),
        ]
        for count in [1, 3, 8, 10, 25] {
            for from in sizes {
                for to in sizes {
                    for item in 0..<count {
                        let (after, page) = layout(count, from).transformed(to: to, keeping: item)
                        #expect(page != nil && after.pages[page!].items.contains(item))
                        // Every column stays on exactly one page, in order.
                        #expect(after.pages.flatMap(\.items) == Array(0..<count))
                        #expect(after.overflow.isEmpty)
                    }
                }
            }
        }
    }
}
