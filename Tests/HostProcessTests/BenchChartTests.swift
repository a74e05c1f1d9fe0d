import Foundation
import Glibc
import HostBench
import HostTools
import SceneModel
import Testing

@testable import hostctl

// XMLParser lives in FoundationXML on Linux, in Foundation elsewhere.
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `hostctl bench --svg`'s chart drawn from fixed figures: it must be XML, hold both panels
/// with their axes, legends and every value, and no two labels may overlap.
///
/// Set SCENEHOST_CHART_SVG_DIR to a directory to keep the charts drawn here (one file per
/// test), to look at them: `rsvg-convert -w 1400 FILE.svg -o FILE.png`.
///
/// Serialized: on Linux XMLParser is libxml2, which is not safe to use from several threads at
/// once (swift-testing runs a suite's tests in parallel; see swiftlang/swift-docc#1606).
@Suite(.serialized) struct BenchChartTests {
    static let subtitle = "release, static stdlib, 2 cores; round trip = deactivate or activate through SceneHandle"

    /// The figures of a full `hostctl bench` run on the 2-vCPU VM BENCHMARKS.md describes (the
    /// USS medians are from that run's JSON, `ussMedianKiB`, as its chart showed them).
    static let publishedRun: [BenchChart.Figures] = [
        .init(
            scenes: 1,
            roundTripMedian: 35.8,
            roundTripP99: 65.1,
            workerPSS: 3386,
            workerUSS: 784,
            hostPerScene: 3568
        ),
        .init(
            scenes: 10,
            roundTripMedian: 40.3,
            roundTripP99: 78.9,
            workerPSS: 1256,
            workerUSS: 616,
            hostPerScene: 350
        ),
        .init(
            scenes: 100,
            roundTripMedian: 36.0,
            roundTripP99: 65.8,
            workerPSS: 692,
            workerUSS: 616,
            hostPerScene: 37.6
        ),
        .init(
            scenes: 1000,
            roundTripMedian: 34.5,
            roundTripP99: 63.1,
            workerPSS: 623,
            workerUSS: 616,
            hostPerScene: 26.1
        ),
    ]

    @Test func publishedRunDrawsEveryValueWithoutOverlaps() throws {
        let chart = try Chart(BenchChart.svg(figures: Self.publishedRun, subtitle: Self.subtitle), keep: "published")
        chart.expectPanels(roundTripPoints: 8, memoryPoints: 11)
        chart.expectNoOverlaps()
        let texts = Set(chart.texts.map(\.content))
        for value in [
            "35.8", "65.1", "40.3", "78.9", "36.0", "65.8", "34.5", "63.1",
            "3386", "784", "1256", "616", "692", "623", "350", "37.6", "26.1",
        ] {
            #expect(texts.contains(value), "value \(value) not labelled")
        }
        // The host's 1-scene figure is its fixed cost, not a per-scene one: not drawn.
        #expect(!texts.contains("3568"))
        // Axes and units.
        for label in [
            "round trip on one scene (µs)", "memory per scene (KiB, log scale)", "live scenes (log scale)",
            "round trip p50 (µs)", "round trip p99 (µs)", "worker PSS p50 (KiB)",
            "worker private (USS) p50 (KiB)", "host RSS growth per scene (KiB)", "1.5× of 1 scene (target)",
            "1", "10", "100", "1000",
        ] {
            #expect(texts.contains(label), "missing \(label)")
        }
        // The memory axis is logarithmic: its ticks run over decades and the 1-scene PSS fits.
        let memoryTicks = chart.texts.filter { $0.group == "memory" && $0.anchor == "end" }.map(\.content)
        #expect(memoryTicks.contains("100") && memoryTicks.contains("1000"), "\(memoryTicks)")
    }

    /// Everything on top of everything: p99 on the target line, PSS = USS = host growth.
    @Test func crowdedFiguresStillDrawWithoutOverlaps() throws {
        let figures = [1, 10, 100, 1000].map {
            BenchChart.Figures(
                scenes: $0,
                roundTripMedian: 40,
                roundTripP99: 60,
                workerPSS: 600,
                workerUSS: 600,
                hostPerScene: 600
            )
        }
        let chart = try Chart(BenchChart.svg(figures: figures, subtitle: Self.subtitle), keep: "crowded")
        chart.expectPanels(roundTripPoints: 8, memoryPoints: 11)
        chart.expectNoOverlaps()
        #expect(chart.texts.filter { $0.content == "600" }.count == 11)
    }

    /// A `--quick` run (three sizes) where the host happened to shrink: a log axis cannot show
    /// that, so it is an open marker on the floor with its real value.
    @Test func quickRunWithAHostThatShrankDraws() throws {
        let figures: [BenchChart.Figures] = [
            .init(
                scenes: 1,
                roundTripMedian: 120,
                roundTripP99: 410,
                workerPSS: 5200,
                workerUSS: 900,
                hostPerScene: 4100
            ),
            .init(
                scenes: 10,
                roundTripMedian: 130,
                roundTripP99: 900,
                workerPSS: 1500,
                workerUSS: 880,
                hostPerScene: 300
            ),
            .init(
                scenes: 100,
                roundTripMedian: 125,
                roundTripP99: 380,
                workerPSS: 950,
                workerUSS: 870,
                hostPerScene: -2.5
            ),
        ]
        let chart = try Chart(BenchChart.svg(figures: figures, subtitle: Self.subtitle), keep: "quick")
        chart.expectPanels(roundTripPoints: 6, memoryPoints: 8)
        chart.expectNoOverlaps()
        #expect(chart.texts.contains { $0.content == "-2.50" })
        #expect(chart.circles.contains { $0.group == "memory" && $0.hollow })
    }
}

/// The parts of a chart's SVG the tests look at, read with a real XML parser.
private struct Chart {
    struct Text {
        var content: String
        var x: Double
        var y: Double
        var size: Double
        var anchor: String
        var group: String?

        /// 0.6 em a character, from 0.8 em over the baseline to 0.2 em under it.
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            let width = 0.6 * size * Double(content.count)
            let minX = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
            return (minX, y - 0.8 * size, minX + width, y + 0.2 * size)
        }
    }

    struct Circle {
        var x: Double
        var y: Double
        var r: Double
        var hollow: Bool
        var group: String?
    }

    var width = 0.0
    var height = 0.0
    var texts: [Text] = []
    var circles: [Circle] = []
    var polylines: [String: Int] = [:]

    init(_ svg: String, keep name: String) throws {
        if let directory = getenv("SCENEHOST_CHART_SVG_DIR").map({ String(cString: $0) }) {
            try svg.write(toFile: directory + "/bench-chart-\(name).svg", atomically: true, encoding: .utf8)
        }
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        let parsed = parser.parse()
        #expect(parsed, "not XML: \(String(describing: parser.parserError))")
        #expect(reader.root == "svg")
        width = reader.width
        height = reader.height
        texts = reader.texts
        circles = reader.circles
        polylines = reader.polylines
    }

    func expectPanels(roundTripPoints: Int, memoryPoints: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for (group, points, series) in [("round-trip", roundTripPoints, 2), ("memory", memoryPoints, 3)] {
            #expect(
                circles.filter { $0.group == group }.count == points,
                "\(group) markers",
                sourceLocation: sourceLocation
            )
            // The frame, then one line a series.
            #expect(polylines[group] == 1 + series, "\(group) lines", sourceLocation: sourceLocation)
            #expect(
                texts.contains { $0.group == group && $0.content == "live scenes (log scale)" },
                sourceLocation: sourceLocation
            )
        }
    }

    /// No two texts overlap, no text covers a data point, and every text is inside the image.
    func expectNoOverlaps(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(width > 0 && height > 0, sourceLocation: sourceLocation)
        for text in texts {
            let box = text.box
            #expect(
                box.minX >= 0 && box.maxX <= width && box.minY >= 0 && box.maxY <= height,
                "\"\(text.content)\" at \(text.x),\(text.y) runs off the image",
                sourceLocation: sourceLocation
            )
        }
        func overlap(
            _ a: (minX: Double, minY: Double, maxX: Double, maxY: Double),
            _ b: (minX: Double, minY: Double, maxX: Double, maxY: Double)
        ) -> Bool {
            a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
        }
        for (index, first) in texts.enumerated() {
            for second in texts[(index + 1)...] where overlap(first.box, second.box) {
                Issue.record(
                    "\"\(first.content)\" at \(first.x),\(first.y) overlaps \"\(second.content)\" at \(second.x),\(second.y)",
                    sourceLocation: sourceLocation
                )
            }
            for circle in circles {
                let marker = (circle.x - circle.r, circle.y - circle.r, circle.x + circle.r, circle.y + circle.r)
                if overlap(first.box, marker) {
                    Issue.record(
                        "\"\(first.content)\" at \(first.x),\(first.y) covers the point at \(circle.x),\(circle.y)",
                        sourceLocation: sourceLocation
                    )
                }
            }
        }
    }
}

private final class Reader: NSObject, XMLParserDelegate {
    var root: String?
    var width = Double.nan
    var height = Double.nan
    var texts: [Chart.Text] = []
    var circles: [Chart.Circle] = []
    var polylines: [String: Int] = [:]
    private var groups: [String] = []
    private var open: Chart.Text?

    func parser(
        _ parser: XMLParser,
        didStartElement name: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
        if root == nil {
            root = name
            width = number("width")
            height = number("height")
        }
        switch name {
        case "g": groups.append(attributes["id"] ?? "")
        case "text":
            open = Chart.Text(
                content: "",
                x: number("x"),
                y: number("y"),
                size: number("font-size"),
                anchor: attributes["text-anchor"] ?? "start",
                group: groups.last
            )
        case "circle":
            circles.append(
                Chart.Circle(
                    x: number("cx"),
                    y: number("cy"),
                    r: number("r"),
                    hollow: attributes["fill"] == "white",
                    group: groups.last
                )
            )
        case "polyline": polylines[groups.last ?? "", default: 0] += 1
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        open?.content += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "g": groups.removeLast()
        case "text":
            if let open { texts.append(open) }
            open = nil
        default: break
        }
    }
}
