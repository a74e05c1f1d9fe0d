import Glibc

/// An outside reference for the round trip: Node's `child_process.fork` IPC (JSON messages
/// over a socketpair), the mechanism a JavaScript scene host would use, measured in the same
/// run and the same placement as ours. Optional: skipped when `node` is not on PATH.
package enum BenchNodeReference {
    /// Parent and child in one script; the child echoes every message. The parent prints one
    /// round-trip time per line, in microseconds, after the warm-up; unpinned, also `same` or
    /// `split` before the first and after every `DrawLog.batch` of them: whether the child last
    /// ran on the parent's CPU (read untimed, as `DrawLog` reads ours).
    private static let script = """
        const { fork } = require('child_process');
        const fs = require('fs');
        const lastCPU = (pid) => {
          const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[36];
        };
        if (process.argv[2] === 'child') {
          process.on('message', (m) => process.send(m));
          process.on('disconnect', () => process.exit(0));
        } else {
          const [cpu, warmup, count] = process.argv.slice(3).map(Number);
          const options = cpu >= 0
            ? { execPath: '/usr/bin/taskset', execArgv: ['-c', String(cpu), process.execPath] } : {};
          const child = fork(process.argv[1], ['child'], options);
          const message = { type: 'callback', name: 'sceneWillResignActive', note: 'x'.repeat(140) };
          const out = [];
          let index = 0, start = 0n;
          const draw = () => { if (cpu < 0) out.push(lastCPU('self') === lastCPU(child.pid) ? 'same' : 'split'); };
          const next = () => { start = process.hrtime.bigint(); child.send(message); };
          child.on('message', () => {
            const end = process.hrtime.bigint();
            if (index >= warmup) out.push((Number(end - start) / 1000).toFixed(3));
            index += 1;
            const measured = index - warmup;
            if (measured === 0 || (measured > 0 && (measured % \(DrawLog.batch) === 0 || measured === count))) draw();
            if (index < warmup + count) { next(); } else {
              process.stdout.write(out.join('\\n') + '\\n', () => child.disconnect());
            }
          });
          if (warmup === 0) draw();
          next();
        }
        """

    /// Round trips through `node`, the parent on the host CPU and the child on `placement`'s
    /// child CPU (unpinned when nil); nil when node is missing or fails.
    package static func roundTrips(placement: BenchPlacement?, warmup: Int, count: Int) async -> RoundTripCost? {
        await BenchThread.run {
            run(placement: placement, warmup: warmup, count: count)
        }
    }

    private static func run(placement: BenchPlacement?, warmup: Int, count: Int) -> RoundTripCost? {
        guard let node = BenchEnvironment.findOnPath("node") else { return nil }
        var template = Array("/tmp/scenehost-bench-node-XXXXXX.js".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard descriptor >= 0 else { return nil }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let bytes = Array(script.utf8)
        let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard wrote == bytes.count else { return nil }

        var argv: [String] = []
        if placement != nil { argv += BenchPlacement.tasksetPrefix(cpu: BenchPlacement.hostCPU) }
        argv += [node, path, "parent", String(placement?.childCPU ?? -1), String(warmup), String(count)]
        guard let output = BenchEnvironment.runCapturingStdout(argv) else { return nil }
        var samples = Samples()
        var batch = Samples()
        var log: DrawLog?
        for line in output.split(separator: "\n") {
            if let value = Double(line) {
                batch.append(value)
                samples.append(value)
                continue
            }
            let draw: BenchPlacement? = line == "same" ? .sameCPU : line == "split" ? .splitCPUs : nil
            guard let draw else { continue }
            if log == nil { log = DrawLog(drawBefore: draw) } else { log?.add(batch, drawAfter: draw) }
            batch = Samples()
        }
        guard samples.count == count else { return nil }
        return RoundTripCost(latencies: samples, hostCPU: nil, childCPU: nil, draws: log?.draws ?? [:])
    }
}
