import DragKit

/// Three-way merge of boards: what two writers changed since a common base, card by card.
///
/// Pure and deterministic. Changes that do not collide are all kept; collisions resolve by the
/// fixed rule in DECISIONS.md ("#12 merge") without losing text, and are reported. Swapping
/// `ours` and `theirs` gives the same board except where a collision's winner is a side.
public enum BoardMerge {
    /// Whether a side's card identities are base's.
    public enum Matching: Hashable, Sendable {
        /// The same `CardID` is the same card (the app's own versions, a database board).
        case identity
        /// Identities mean nothing (a freshly parsed file numbers its cards 1, 2, 3…): match by content and place.
        case content
    }

    public struct Result: Sendable {
        public var board: Board
        public var conflicts: [BoardConflict]
        /// Cards theirs added, removed, moved or edited since base.
        public var incomingChanges: Int
        /// Theirs' card identity → the identity of that card in `board` (for cards that survive).
        public var theirsIdentity: [CardID: CardID]
        /// For each of theirs' columns, the index of that column in `board` (nil: it did not survive).
        public var theirsColumns: [Int?]
    }

    /// Merges what `ours` and `theirs` each changed since `base`.
    public static func merge(
        base: Board, ours: Board, theirs: Board,
        matching: (ours: Matching, theirs: Matching) = (.identity, .identity)
    ) -> Result {
        var engine = MergeEngine(base: base, ours: ours, theirs: theirs, matching: matching)
        var result = engine.run()
        result.board.capacity = ours.capacity
        return result
    }
}

/// The working state of one merge: cards and columns as nodes shared by the three versions.
private struct MergeEngine {
    let base: FlatBoard, ours: FlatBoard, theirs: FlatBoard
    let matching: (ours: BoardMerge.Matching, theirs: BoardMerge.Matching)
    var om: SideMatch, tm: SideMatch

    // Card nodes: 0..<base.cards.count are base's cards; then cards a side added.
    var cardB: [Int] = [], cardO: [Int] = [], cardT: [Int] = []
    var oursNode: [Int] = [], theirsNode: [Int] = []
    // Column nodes likewise.
    var colB: [Int] = [], colO: [Int] = [], colT: [Int] = []
    var oursCol: [Int] = [], theirsCol: [Int] = []

    var conflicts: [BoardConflict] = []

    init(base: Board, ours: Board, theirs: Board, matching: (ours: BoardMerge.Matching, theirs: BoardMerge.Matching)) {
        self.base = FlatBoard(base)
        self.ours = FlatBoard(ours)
        self.theirs = FlatBoard(theirs)
        self.matching = matching
        om = BoardMatcher.match(base: self.base, side: self.ours, by: matching.ours)
        tm = BoardMatcher.match(base: self.base, side: self.theirs, by: matching.theirs)
    }

    mutating func buildNodes() {
        let nb = base.cards.count
        cardB = Array(0..<nb)
        cardO = om.baseToCard.map { $0 ?? -1 }
        cardT = tm.baseToCard.map { $0 ?? -1 }
        oursNode = [Int](repeating: -1, count: ours.cards.count)
        theirsNode = [Int](repeating: -1, count: theirs.cards.count)
        var addedByOursContent: [UInt64: [Int]] = [:]
        var addedByOursID: [CardID: Int] = [:]
        for s in ours.cards.indices {
            if let b = om.cardToBase[s] { oursNode[s] = b; continue }
            let node = cardB.count
            cardB.append(-1); cardO.append(s); cardT.append(-1)
            oursNode[s] = node
            addedByOursContent[contentHash(ours.cards[s]), default: []].append(node)
            addedByOursID[ours.cards[s].id] = node
        }
        let sameIDs = matching.ours == .identity && matching.theirs == .identity
        for s in theirs.cards.indices {
            if let b = tm.cardToBase[s] { theirsNode[s] = b; continue }
            let card = theirs.cards[s]
            if sameIDs, let node = addedByOursID[card.id], cardT[node] < 0 {
                cardT[node] = s; theirsNode[s] = node; continue
            }
            // Both sides added the same card: one card (the first of ours' equal ones still free).
            if let list = addedByOursContent[contentHash(card)],
                let node = list.first(where: { cardT[$0] < 0 && sameContent(ours.cards[cardO[$0]], card) })
            {
                cardT[node] = s; theirsNode[s] = node; continue
            }
            let node = cardB.count
            cardB.append(-1); cardO.append(-1); cardT.append(s)
            theirsNode[s] = node
        }

        let nbc = base.board.columns.count
        colB = Array(0..<nbc)
        colO = om.baseToColumn.map { $0 ?? -1 }
        colT = tm.baseToColumn.map { $0 ?? -1 }
        oursCol = [Int](repeating: -1, count: ours.board.columns.count)
        theirsCol = [Int](repeating: -1, count: theirs.board.columns.count)
        var addedColumns: [String: [Int]] = [:]
        for j in ours.board.columns.indices {
            if let b = om.columnToBase[j] { oursCol[j] = b; continue }
            let node = colB.count
            colB.append(-1); colO.append(j); colT.append(-1)
            oursCol[j] = node
            addedColumns[ours.board.columns[j].title.lowercased(), default: []].append(node)
        }
        var usedColumns: [String: Int] = [:]
        for j in theirs.board.columns.indices {
            if let b = tm.columnToBase[j] { theirsCol[j] = b; continue }
            let t = theirs.board.columns[j].title.lowercased()
            let k = usedColumns[t, default: 0]
            if let list = addedColumns[t], k < list.count {
                usedColumns[t] = k + 1
                colT[list[k]] = j; theirsCol[j] = list[k]; continue
            }
            let node = colB.count
            colB.append(-1); colO.append(-1); colT.append(j)
            theirsCol[j] = node
        }
    }

    /// A side's cards that are in base and still in their base column: for each of the side's columns, the nodes in order.
    func keptInColumn(_ side: FlatBoard, _ nodeOf: [Int], _ colOf: [Int]) -> [(column: Int, indices: [Int])] {
        side.board.columns.indices.map { j in
            let start = side.columnStart[j]
            let indices = (start..<(start + side.board.columns[j].cards.count)).filter {
                let node = nodeOf[$0]
                return node < base.cards.count && base.column[node] == colOf[j]
            }
            return (j, indices)
        }
    }

    /// What a side certainly did to each base card (by node): `.deleted`, `.movedAway` (to another
    /// column), `.reordered` (in no longest run in base order in its column), or `.kept`.
    enum Fate {
        case kept, reordered, movedAway, deleted

        /// How much the other side would rather keep such a card in place when its own order can be
        /// read more than one way: a card the other side moved first (else both moved it: a collision),
        /// a card it deleted last (whatever this side did to its place vanishes with it).
        var keepBonus: Int {
            switch self {
            case .movedAway: 3;
            case .reordered: 2;
            case .kept: 1;
            case .deleted: 0
            }
        }
    }

    func fates(_ side: FlatBoard, _ nodeOf: [Int], _ colOf: [Int], present: [Int]) -> [Fate] {
        var fate = [Fate](repeating: .kept, count: base.cards.count)
        for node in 0..<base.cards.count where present[node] < 0 { fate[node] = .deleted }
        for (s, node) in nodeOf.enumerated() where node < base.cards.count && base.column[node] != colOf[side.column[s]]
        {
            fate[node] = .movedAway
        }
        for (j, indices) in keptInColumn(side, nodeOf, colOf) {
            guard colOf[j] < base.board.columns.count else { continue }
            let offset = base.columnStart[colOf[j]]
            let values = indices.map { nodeOf[$0] - offset }
            let must = OrderMerge.mustMove(values, limit: base.board.columns[colOf[j]].cards.count)
            for (k, s) in indices.enumerated() where must[k] { fate[nodeOf[s]] = .reordered }
        }
        return fate
    }

    /// Which of a side's base cards keep their place: same column node, in a longest run in base
    /// order. A side's order can often be read as more than one set of moves (swapping two cards
    /// moves either); among the longest runs it takes the one with the most `Fate.keepBonus` of
    /// what the other side did, so a collision is reported only when both sides certainly moved a card.
    func stillPlaced(_ side: FlatBoard, _ nodeOf: [Int], _ colOf: [Int], other: [Fate], otherMoved: [Bool]? = nil)
        -> [Bool]
    {
        var still = [Bool](repeating: false, count: side.cards.count)
        for (j, indices) in keptInColumn(side, nodeOf, colOf) {
            guard colOf[j] < base.board.columns.count, !indices.isEmpty else { continue }
            let offset = base.columnStart[colOf[j]]
            let values = indices.map { nodeOf[$0] - offset }
            let bonus = indices.map { other[nodeOf[$0]].keepBonus + (otherMoved?[nodeOf[$0]] == true ? 4 : 0) }
            let mask = OrderMerge.increasingMask(values, limit: base.board.columns[colOf[j]].cards.count, bonus: bonus)
            for (k, s) in indices.enumerated() where mask[k] { still[s] = true }
        }
        return still
    }

    func name(_ card: Card) -> String { "“\(card.title)”" }

    mutating func run() -> BoardMerge.Result {
        buildNodes()
        let nodes = cardB.count
        let oursFate = fates(ours, oursNode, oursCol, present: cardO)
        let theirsFate = fates(theirs, theirsNode, theirsCol, present: cardT)
        // Two readings: the second keeps in place, where it can, what the other side's first reading moved.
        let oursFirst = stillPlaced(ours, oursNode, oursCol, other: theirsFate)
        let theirsFirst = stillPlaced(theirs, theirsNode, theirsCol, other: oursFate)
        func moved(_ still: [Bool], _ nodeOf: [Int], _ fate: [Fate]) -> [Bool] {
            var moved = fate.map { $0 == .movedAway }
            for (s, node) in nodeOf.enumerated() where node < base.cards.count && !still[s] { moved[node] = true }
            return moved
        }
        let oursStill = stillPlaced(
            ours, oursNode, oursCol, other: theirsFate, otherMoved: moved(theirsFirst, theirsNode, theirsFate))
        let theirsStill = stillPlaced(
            theirs, theirsNode, theirsCol, other: oursFate, otherMoved: moved(oursFirst, oursNode, oursFate))

        // Content of surviving cards, who places each, and where.
        var survives = [Bool](repeating: false, count: nodes)
        var placer = [MergeSide?](repeating: nil, count: nodes)
        var finalColumn = [Int](repeating: -1, count: nodes)
        var content = [Card?](repeating: nil, count: nodes)
        var incoming = 0
        var movedTwice: [Int] = []
        for n in 0..<nodes {
            let b = cardB[n], o = cardO[n], t = cardT[n]
            if b >= 0 {
                let bc = base.cards[b]
                let oc = o >= 0 ? ours.cards[o] : nil
                let tc = t >= 0 ? theirs.cards[t] : nil
                let oEdited = oc.map { !sameContent($0, bc) } ?? false
                let tEdited = tc.map { !sameContent($0, bc) } ?? false
                let oMoved = o >= 0 && !oursStill[o]
                let tMoved = t >= 0 && !theirsStill[t]
                if t < 0 || tEdited || tMoved { incoming += 1 }
                switch (oc, tc) {
                case let (oc?, tc?):
                    survives[n] = true
                    let (merged, note) =
                        !tEdited ? (oc, nil) : !oEdited ? (tc, nil) : CardMerge.merge(base: bc, ours: oc, theirs: tc)
                    content[n] = merged
                    if let note {
                        conflicts.append(
                            BoardConflict(
                                kind: .editedTwice, card: CardID(UInt64(n)),
                                message: "\(name(merged)) was edited here and elsewhere: \(note)"))
                    }
                    if oMoved {
                        placer[n] = .ours
                        if tMoved { movedTwice.append(n) }
                    } else if tMoved {
                        placer[n] = .theirs
                    }
                case let (oc?, nil):
                    if oEdited {
                        survives[n] = true
                        placer[n] = .ours
                        content[n] = oc
                        conflicts.append(
                            BoardConflict(
                                kind: .editedAndDeleted, card: CardID(UInt64(n)),
                                message: "\(name(oc)) was deleted elsewhere but edited here: kept"))
                    }
                case let (nil, tc?):
                    if tEdited {
                        survives[n] = true
                        placer[n] = .theirs
                        content[n] = tc
                        conflicts.append(
                            BoardConflict(
                                kind: .editedAndDeleted, card: CardID(UInt64(n)),
                                message: "\(name(tc)) was deleted here but edited elsewhere: kept"))
                    }
                case (nil, nil):
                    break
                }
                if survives[n] {
                    switch placer[n] {
                    case .ours: finalColumn[n] = oursCol[ours.column[o]]
                    case .theirs: finalColumn[n] = theirsCol[theirs.column[t]]
                    case nil: finalColumn[n] = base.column[b]
                    }
                }
            } else {
                survives[n] = true
                if o >= 0 {
                    placer[n] = .ours
                    content[n] = ours.cards[o]
                    finalColumn[n] = oursCol[ours.column[o]]
                } else {
                    placer[n] = .theirs
                    content[n] = theirs.cards[t]
                    finalColumn[n] = theirsCol[theirs.column[t]]
                }
                if t >= 0 && o < 0 { incoming += 1 }
            }
        }

        // Columns: which survive (a deleted one comes back when a surviving card is placed in it).
        let columnNodes = colB.count
        var columnHolds = [Int](repeating: 0, count: columnNodes)
        for n in 0..<nodes where survives[n] { columnHolds[finalColumn[n]] += 1 }
        let oColStill = columnsStill(oursCol, other: columnFates(theirsCol, present: colT))
        let tColStill = columnsStill(theirsCol, other: columnFates(oursCol, present: colO))
        var columnsMovedTwice: [Int] = []
        var colSurvives = [Bool](repeating: false, count: columnNodes)
        var colPlacer = [MergeSide?](repeating: nil, count: columnNodes)
        var columnContent = [Column?](repeating: nil, count: columnNodes)
        for c in 0..<columnNodes {
            let b = colB[c], o = colO[c], t = colT[c]
            if b >= 0 {
                let bc = base.board.columns[b]
                if o >= 0 && t >= 0 {
                    colSurvives[c] = true
                    let (merged, note) = ColumnMerge.merge(
                        base: bc, ours: ours.board.columns[o], theirs: theirs.board.columns[t])
                    columnContent[c] = merged
                    if let note {
                        conflicts.append(
                            BoardConflict(kind: .columnChangedTwice, message: "Column “\(bc.title)” was \(note)"))
                    }
                    if !oColStill[o] {
                        colPlacer[c] = .ours
                        if !tColStill[t] { columnsMovedTwice.append(c) }
                    } else if !tColStill[t] {
                        colPlacer[c] = .theirs
                    }
                } else if (o >= 0 || t >= 0) && columnHolds[c] > 0 {
                    colSurvives[c] = true
                    colPlacer[c] = o >= 0 ? .ours : .theirs
                    var column = o >= 0 ? ours.board.columns[o] : theirs.board.columns[t]
                    column.cards = []
                    columnContent[c] = column
                    let kept = (0..<nodes).filter { survives[$0] && finalColumn[$0] == c }.prefix(5).map {
                        name(content[$0]!)
                    }
                    let here = o >= 0 ? "elsewhere" : "here"
                    let other = o >= 0 ? "here" : "elsewhere"
                    conflicts.append(
                        BoardConflict(
                            kind: .columnDeletedWithChanges, card: nil,
                            message:
                                "Column “\(column.title)” was deleted \(here) but cards changed in it \(other): kept with \(Board.listed(kept, or: "and"))\(columnHolds[c] > 5 ? " and \(columnHolds[c] - 5) more" : "")"
                        ))
                }
            } else {
                colSurvives[c] = true
                colPlacer[c] = o >= 0 ? .ours : .theirs
                var column = o >= 0 ? ours.board.columns[o] : theirs.board.columns[t]
                column.cards = []
                columnContent[c] = column
            }
        }
        let stationaryColumn = { (c: Int) in colSurvives[c] && colPlacer[c] == nil }
        if !columnsMovedTwice.isEmpty {
            let oAnchor = OrderMerge.anchors(in: oursCol, stationary: stationaryColumn)
            let tAnchor = OrderMerge.anchors(in: theirsCol, stationary: stationaryColumn)
            for c in columnsMovedTwice where oAnchor[c]! != tAnchor[c]! {
                conflicts.append(
                    BoardConflict(
                        kind: .columnChangedTwice,
                        message:
                            "Column “\(columnContent[c]!.title)” was moved here and elsewhere: this side's place kept"))
            }
        }
        let columnOrder = OrderMerge.merge(
            base: Array(0..<base.board.columns.count),
            ours: oursCol, theirs: theirsCol,
            stationary: { colSurvives[$0] && colPlacer[$0] == nil },
            placedHere: { c, side in colSurvives[c] && colPlacer[c] == side },
            shared: { c in
                colSurvives[c] && colO[c] >= 0 && colT[c] >= 0
                    && (colB[c] < 0 || (!oColStill[colO[c]] && !tColStill[colT[c]]))
            },
            runsInOrder: { columnContent[$0]!.title < columnContent[$1]!.title })

        // Moved to two places: the same target column and the same stationary neighbour before it is one place.
        let stationaryCard = { (n: Int) in survives[n] && placer[n] == nil }
        var movedTwiceReported = Set<Int>()
        if !movedTwice.isEmpty {
            var oAnchor: [Int: Int?] = [:], tAnchor: [Int: Int?] = [:]
            let needed = Set(movedTwice.map { ours.column[cardO[$0]] })
            for j in needed {
                oAnchor.merge(OrderMerge.anchors(in: sideSequence(ours, j, oursNode), stationary: stationaryCard)) {
                    a, _ in a
                }
            }
            let neededT = Set(movedTwice.map { theirs.column[cardT[$0]] })
            for j in neededT {
                tAnchor.merge(OrderMerge.anchors(in: sideSequence(theirs, j, theirsNode), stationary: stationaryCard)) {
                    a, _ in a
                }
            }
            for n in movedTwice {
                let oc = oursCol[ours.column[cardO[n]]], tc = theirsCol[theirs.column[cardT[n]]]
                if oc != tc || oAnchor[n]! != tAnchor[n]! {
                    movedTwiceReported.insert(n)
                    let column = columnContent[oc]?.title ?? ""
                    conflicts.append(
                        BoardConflict(
                            kind: .movedTwice, card: CardID(UInt64(n)),
                            message:
                                "\(name(content[n]!)) was moved here and elsewhere: this side's place kept (in “\(column)”)"
                        ))
                }
            }
        }

        // Cards of each surviving column.
        var oursColumnOf = [Int](repeating: -1, count: columnNodes)
        var theirsColumnOf = [Int](repeating: -1, count: columnNodes)
        for (j, c) in oursCol.enumerated() { oursColumnOf[c] = j }
        for (j, c) in theirsCol.enumerated() { theirsColumnOf[c] = j }
        var result = Board()
        result.columns.reserveCapacity(columnOrder.count)
        var usedIDs = Set<CardID>()
        usedIDs.reserveCapacity(ours.cards.count)
        for card in ours.cards { usedIDs.insert(card.id) }
        var resultID = [CardID?](repeating: nil, count: nodes)
        var theirsIdentity: [CardID: CardID] = [:]
        theirsIdentity.reserveCapacity(theirs.cards.count)
        var resultColumnOf = [Int?](repeating: nil, count: columnNodes)
        var usedColumnIDs = Set(ours.board.columns.map(\.id))
        for c in columnOrder {
            var column = columnContent[c]!
            // A column keeps ours' identity; one only theirs has keeps theirs' (fresh if ours uses it).
            if colO[c] >= 0 {
                column.id = ours.board.columns[colO[c]].id
            } else if colT[c] >= 0, !usedColumnIDs.contains(theirs.board.columns[colT[c]].id) {
                column.id = theirs.board.columns[colT[c]].id
                usedColumnIDs.insert(column.id)
            } else {
                column.id = .fresh()
                usedColumnIDs.insert(column.id)
            }
            let bSeq =
                colB[c] >= 0
                ? Array(
                    base.columnStart[colB[c]]..<(base.columnStart[colB[c]] + base.board.columns[colB[c]].cards.count))
                : []
            let oSeq = oursColumnOf[c] >= 0 ? sideSequence(ours, oursColumnOf[c], oursNode) : []
            let tSeq = theirsColumnOf[c] >= 0 ? sideSequence(theirs, theirsColumnOf[c], theirsNode) : []
            func shared(_ n: Int) -> Bool {
                guard survives[n], cardO[n] >= 0, cardT[n] >= 0, finalColumn[n] == c,
                    oursCol[ours.column[cardO[n]]] == c, theirsCol[theirs.column[cardT[n]]] == c
                else { return false }
                return cardB[n] < 0 || (!oursStill[cardO[n]] && !theirsStill[cardT[n]])
            }
            if !oSeq.isEmpty && !tSeq.isEmpty {
                // Cards both sides moved here, in another order on each side: ours' order wins.
                let oSkeleton = oSeq.filter { stationaryCard($0) || shared($0) }
                let tSkeleton = tSeq.filter { stationaryCard($0) || shared($0) }
                if oSkeleton != tSkeleton {
                    for (a, b) in zip(oSkeleton, tSkeleton)
                    where a != b && cardB[a] >= 0 && !movedTwiceReported.contains(a) {
                        movedTwiceReported.insert(a)
                        conflicts.append(
                            BoardConflict(
                                kind: .movedTwice, card: CardID(UInt64(a)),
                                message:
                                    "\(name(content[a]!)) was moved here and elsewhere: this side's place kept (in “\(column.title)”)"
                            ))
                    }
                }
            }
            let order = OrderMerge.merge(
                base: bSeq, ours: oSeq, theirs: tSeq, stationary: stationaryCard,
                placedHere: { n, side in survives[n] && placer[n] == side && finalColumn[n] == c },
                shared: shared,
                runsInOrder: {
                    (content[$0]!.title, content[$0]!.descriptionLines.joined(separator: "\n")) < (
                        content[$1]!.title, content[$1]!.descriptionLines.joined(separator: "\n")
                    )
                })
            for n in order {
                var card = content[n]!
                if cardO[n] >= 0 {
                    card.id = ours.cards[cardO[n]].id
                } else if matching.theirs == .identity, cardT[n] >= 0, !usedIDs.contains(theirs.cards[cardT[n]].id) {
                    card.id = theirs.cards[cardT[n]].id
                    usedIDs.insert(card.id)
                } else {
                    card.id = CardID.fresh()
                }
                resultID[n] = card.id
                if cardT[n] >= 0 { theirsIdentity[theirs.cards[cardT[n]].id] = card.id }
                column.cards.append(card)
            }
            resultColumnOf[c] = result.columns.count
            result.columns.append(column)
        }
        // Conflicts name cards by node until now; give them the result's identities.
        for i in conflicts.indices {
            if let node = conflicts[i].card { conflicts[i].card = resultID[Int(node.rawValue)] }
        }
        result.acceptRules = mergeRules(resultColumnOf: resultColumnOf, result: result)
        result.acceptRules.swimlanes = mergeSwimlanes()
        // The flow setting (#28): theirs when only they changed it.
        let baseFlow = base.board.acceptRules.flow, theirsFlow = theirs.board.acceptRules.flow
        if theirsFlow != baseFlow && ours.board.acceptRules.flow == baseFlow { result.acceptRules.flow = theirsFlow }
        return BoardMerge.Result(
            board: result, conflicts: conflicts, incomingChanges: incoming,
            theirsIdentity: theirsIdentity, theirsColumns: theirsCol.map { resultColumnOf[$0] })
    }

    func sideSequence(_ side: FlatBoard, _ j: Int, _ nodeOf: [Int]) -> [Int] {
        let start = side.columnStart[j]
        return Array(nodeOf[start..<(start + side.board.columns[j].cards.count)])
    }

    /// What a side certainly did to each base column: `.deleted`, `.reordered`, or `.kept`.
    func columnFates(_ colOf: [Int], present: [Int]) -> [Fate] {
        let nbc = base.board.columns.count
        var fate = (0..<nbc).map { present[$0] < 0 ? Fate.deleted : .kept }
        let fromBase = colOf.filter { $0 < nbc }
        for (k, must) in OrderMerge.mustMove(fromBase, limit: nbc).enumerated() where must {
            fate[fromBase[k]] = .reordered
        }
        return fate
    }

    /// Which of a side's columns keep their base order (chosen among the longest runs as for cards).
    func columnsStill(_ colOf: [Int], other: [Fate]) -> [Bool] {
        let nbc = base.board.columns.count
        let fromBase = colOf.indices.filter { colOf[$0] < nbc }
        let bonus = fromBase.map { other[colOf[$0]].keepBonus }
        let mask = OrderMerge.increasingMask(fromBase.map { colOf[$0] }, limit: nbc, bonus: bonus)
        var still = [Bool](repeating: false, count: colOf.count)
        for (k, j) in fromBase.enumerated() where mask[k] { still[j] = true }
        return still
    }

    /// Accept rules: each side's rules in terms of column nodes, merged per column, written with the result's titles.
    mutating func mergeRules(resultColumnOf: [Int?], result: Board) -> AcceptRules {
        enum Name: Hashable { case column(Int), other(String) }
        func names(_ board: Board, _ colOf: (Int) -> Int) -> (String) -> Name {
            var first: [String: Int] = [:]
            for (j, c) in board.columns.enumerated() where first[c.title] == nil { first[c.title] = colOf(j) }
            return { title in first[title].map { .column($0) } ?? .other(title) }
        }
        func table(_ board: Board, _ colOf: @escaping (Int) -> Int) -> [Name: [Name]] {
            let name = names(board, colOf)
            var t: [Name: [Name]] = [:]
            for rule in board.acceptRules.rules { t[name(rule.column)] = rule.sources.map(name) }
            return t
        }
        let b = table(base.board) { $0 }
        let oursCol = self.oursCol, theirsCol = self.theirsCol
        let o = table(ours.board) { oursCol[$0] }
        let t = table(theirs.board) { theirsCol[$0] }
        if t == b && resultTitlesMatchOurs(resultColumnOf: resultColumnOf, result: result) {
            return ours.board.acceptRules
        }
        func title(_ n: Name) -> String? {
            switch n {
            case .column(let c): resultColumnOf[c].map { result.columns[$0].title }
            case .other(let s): s
            }
        }
        // Start from ours' rules (keeping their comments), with ours' titles turned into the result's.
        var rules = ours.board.acceptRules
        let oursTitles = ours.board.columns.map(\.title)
        for (j, c) in oursCol.enumerated() {
            if let r = resultColumnOf[c] {
                if result.columns[r].title != oursTitles[j] {
                    rules.renameColumn(oursTitles[j], to: result.columns[r].title)
                }
            } else {
                rules.removeColumn(oursTitles[j])
            }
        }
        for key in Set(b.keys).union(t.keys).sorted(by: { "\($0)" < "\($1)" }) {
            let bv = b[key], ov = o[key], tv = t[key]
            guard tv != bv, let column = title(key) else { continue }
            if ov == bv || ov == tv {
                rules.setSources(tv?.compactMap(title), for: column)
            } else {
                conflicts.append(
                    BoardConflict(
                        kind: .columnChangedTwice,
                        message: "The accept rule of “\(column)” was changed here and elsewhere: this side's rule kept")
                )
            }
        }
        return rules
    }

    /// Swimlanes: whichever side changed them; when both did, differently, this side's are kept (and said).
    mutating func mergeSwimlanes() -> Swimlanes? {
        let b = base.board.acceptRules.swimlanes, o = ours.board.acceptRules.swimlanes,
            t = theirs.board.acceptRules.swimlanes
        if t == b || o == t { return o }
        if o == b { return t }
        conflicts.append(
            BoardConflict(
                kind: .columnChangedTwice, message: "The swimlanes were changed here and elsewhere: this side's kept"))
        return o
    }

    func resultTitlesMatchOurs(resultColumnOf: [Int?], result: Board) -> Bool {
        for (j, c) in oursCol.enumerated() {
            guard let r = resultColumnOf[c], result.columns[r].title == ours.board.columns[j].title else {
                return false
            }
        }
        return true
    }
}
