// Command benchreport turns the output of moot's benchmarks (go test
// -bench, on stdin) into the table of figures, targets and results that
// scripts/bench prints and docs/benchmarks.md shows. It reads the standard Go
// benchmark format with golang.org/x/perf/benchfmt.
//
// Usage: go test -bench . ./engine ./tui ./harness | go run ./internal/benchreport [-markdown]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchfmt"
)

// results maps "BenchmarkName unit" to the mean of its values.
type results map[string][]float64

func (r results) get(bench, unit string) (float64, bool) {
	v := r[bench+" "+unit]
	if len(v) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v)), true
}

func read(in io.Reader) (results, error) {
	out := results{}
	rd := benchfmt.NewReader(in, "stdin")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue // syntax errors are the test's own log lines
		}
		// a sub-benchmark keeps its path: "List10000/hand"
		base, parts := res.Name.Parts()
		name := strings.TrimPrefix(string(base), "Benchmark")
		for _, p := range parts {
			if strings.HasPrefix(string(p), "/") {
				name += string(p)
			}
		}
		for _, v := range res.Values {
			out[name+" "+v.Unit] = append(out[name+" "+v.Unit], v.Value)
		}
	}
	return out, rd.Err()
}

// row is one line of the report.
type row struct {
	figure, target string
	// result formats the figure and judges it ("met", "missed", "—").
	result func(r results) (string, string)
}

func metric(bench, unit, format string, ok func(float64) bool) func(results) (string, string) {
	return func(r results) (string, string) {
		v, found := r.get(bench, unit)
		if !found {
			return "not run", "—"
		}
		verdict := "—"
		if ok != nil {
			verdict = "missed"
			if ok(v) {
				verdict = "met"
			}
		}
		return fmt.Sprintf(format, v), verdict
	}
}

var rows = []row{
	{"debate wall ÷ critical path (N=8, R=3, engine of 500 ms)", "≤ 1.01",
		metric("Orchestration", "wall/critical", "%.3f", func(v float64) bool { return v <= 1.01 })},
	{"moot's own time over that whole debate", "≈ 25 ms",
		metric("Orchestration", "overhead-ms", "%.0f ms", nil)},
	{"sequential ÷ parallel (--parallel 1, same debate)", "close to N (ideal 6.6 with the judge)",
		metric("SequentialFallback", "seq/par", "%.2f", func(v float64) bool { return v >= 0.85*6.6 })},
	{"moot's own time per call (spawn, capture, validate, durable write)", "—",
		metric("PerCallOverhead", "ms/call", "%.1f ms", nil)},
	{"memory while an engine prints 100 MB", "bounded",
		func(r results) (string, string) {
			alloc, ok1 := r.get("Flood100MB", "MiB-alloc/op")
			kept, ok2 := r.get("Flood100MB", "MiB-raw-kept")
			if !ok1 || !ok2 {
				return "not run", "—"
			}
			verdict := "missed"
			if alloc < 64 {
				verdict = "met"
			}
			return fmt.Sprintf("%.0f MiB allocated, %.0f MiB raw kept", alloc, kept), verdict
		}},
	{"live view frame, 16 panes streaming: Update (wrapping the deltas) + View", "≤ 2 ms per frame",
		func(r results) (string, string) {
			frame, ok := r.get("LiveViewFrame", "ms/frame")
			if !ok {
				return "not run", "—"
			}
			upd, _ := r.get("LiveViewFrame", "ms/Update")
			view, _ := r.get("LiveViewFrame", "ms/View")
			return fmt.Sprintf("%.2f ms (Update %.2f + View %.2f)", frame, upd, view), verdict(frame <= 2)
		}},
	{"browser on 10,000 debates: first screen (warm cache)", "≤ 300 ms",
		metric("Browser10000", "ms-first-screen", "%.0f ms", func(v float64) bool { return v <= 300 })},
	{"browser: full index ÷ a minimal reader of the same files, same 4 workers (warm)", "≤ 2×",
		func(r results) (string, string) {
			ratio, ok := r.get("Browser10000", "index/floor")
			full, _ := r.get("Browser10000", "ms-full-index")
			floor, _ := r.get("Browser10000", "ms-floor")
			if !ok {
				return "not run", "—"
			}
			verdict := "missed"
			if ratio <= 2 {
				verdict = "met"
			}
			return fmt.Sprintf("%.2f× (%.0f ms vs %.0f ms)", ratio, full, floor), verdict
		}},
	{"browser on 50,000 debates: first screen (warm cache)", "≤ 100 ms",
		metric("Browser50000", "ms-first-screen", "%.0f ms", func(v float64) bool { return v <= 100 })},
	listRow("moot list, 10,000 debates as moot records them (warm)", "List10000/recorded"),
	listRow("moot list, 10,000 hand-run debates, final answers without summary fields (warm)", "List10000/hand"),
	listRow("moot list --json, the same 10,000 hand-run debates (warm)", "List10000/hand-json"),
	{"moot list, the same, its cache emptied before each run", "reported",
		func(r results) (string, string) {
			ms, ok := r.get("List10000/hand-nocache", "ms-list")
			if !ok {
				return "not run", "—"
			}
			read, _ := r.get("List10000/hand-nocache", "ms-floor-read")
			return fmt.Sprintf("%.0f ms (reading every file, same workers: %.0f ms)", ms, read), "—"
		}},
	startupRow("moot version", "ms-cpu-version"),
	startupRow("moot help", "ms-cpu-help"),
	startupRow("moot list, small register", "ms-cpu-list"),
	versionFloorRow,
	depsFloorRow,
	initRow,
	{"browser on 10,000 debates, cold cache: first screen / full index", "reported",
		func(r results) (string, string) {
			first, ok := r.get("Browser10000Cold", "ms-first-screen")
			if !ok {
				return "not run (needs root to drop the page cache)", "—"
			}
			full, _ := r.get("Browser10000Cold", "ms-full-index")
			floor, _ := r.get("Browser10000Cold", "ms-floor")
			return fmt.Sprintf("%.0f ms / %.0f ms (floor %.0f ms)", first, full, floor), "—"
		}},
}

// overheadRows are the rows of moot's overhead targets: the real binary
// against the reference orchestrator (internal/refmoot), and memory and
// bytes written for a large P at two panel sizes.
var overheadRows = []row{
	{"end to end, real binary ÷ reference orchestrator, both started as processes (N=8, R=3, engine of 500 ms)", "≤ 1.03",
		endToEnd("EndToEnd8", 1.03)},
	{"end to end ÷ reference, both processes, at N=16 (the largest panel moot runs)", "≤ 1.05",
		endToEnd("EndToEnd16", 1.05)},
	{"end to end ÷ the reference run inside the benchmark's process (no process start of its own), N=8 / N=16", "reported",
		func(r results) (string, string) {
			n8, ok8 := r.get("EndToEnd8", "moot/ref-inproc")
			n16, ok16 := r.get("EndToEnd16", "moot/ref-inproc")
			if !ok8 || !ok16 {
				return "not run", "—"
			}
			return fmt.Sprintf("%.3f× / %.3f×", n8, n16), "—"
		}},
	{"moot's own CPU per call / per stage (N=8, engine processes excluded)", "reported",
		func(r results) (string, string) {
			call, ok := r.get("EndToEnd8", "ms-own-cpu/call")
			stage, _ := r.get("EndToEnd8", "ms-own-cpu/stage")
			if !ok {
				return "not run", "—"
			}
			return fmt.Sprintf("%.1f ms / %.0f ms", call, stage), "—"
		}},
	{"peak RSS with a 24 MB P, N=2 / N=16", "≤ 2×|P| + 64 MB (112 MiB), any N",
		func(r results) (string, string) {
			n2, ok2 := r.get("MemoryN2", "MiB-peak-rss")
			n16, ok16 := r.get("MemoryN16", "MiB-peak-rss")
			p, _ := r.get("MemoryN2", "MiB-P")
			if !ok2 || !ok16 {
				return "not run", "—"
			}
			return fmt.Sprintf("%.0f MiB / %.0f MiB", n2, n16), verdict(max(n2, n16) <= 2*p+64)
		}},
	{"bytes written per byte of P (N=2 / N=16): a 24 MB P's debate less the same debate on the bare sample, ÷ |P|", "≤ 2",
		func(r results) (string, string) {
			n2, ok2 := r.get("MemoryN2", "P-written")
			n16, ok16 := r.get("MemoryN16", "P-written")
			if !ok2 || !ok16 {
				return "not run", "—"
			}
			all2, _ := r.get("MemoryN2", "written-less-answers/P")
			all16, _ := r.get("MemoryN16", "written-less-answers/P")
			return fmt.Sprintf("%.3f / %.3f (all writes less the answers' file sizes: %.3f / %.3f)", n2, n16, all2, all16),
				verdict(max(n2, n16) <= 2)
		}},
}

// endToEnd is the row of an end-to-end benchmark: moot ÷ the reference,
// with moot's own time per call and per stage.
func endToEnd(bench string, target float64) func(results) (string, string) {
	return func(r results) (string, string) {
		ratio, ok := r.get(bench, "moot/ref")
		if !ok {
			return "not run", "—"
		}
		call, _ := r.get(bench, "ms-own/call")
		stage, _ := r.get(bench, "ms-own/stage")
		return fmt.Sprintf("%.3f× (own %.1f ms/call, %.0f ms/stage)", ratio, call, stage), verdict(ratio <= target)
	}
}

// verdict is "met" or "missed".
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}

// listRow is a `moot list` figure: its time, and its ratio to a minimal
// reader with the same workers (stat only: what a cache checked against
// the files cannot avoid).
func listRow(figure, bench string) row {
	return row{figure, "≤ 2 s (ratio: to stat-only reader, same workers)", func(r results) (string, string) {
		ms, ok := r.get(bench, "ms-list")
		if !ok {
			return "not run", "—"
		}
		stat, _ := r.get(bench, "ms-floor-stat")
		ratio, _ := r.get(bench, "list/floor-stat")
		return fmt.Sprintf("%.0f ms (%.1f× the %.0f ms floor)", ms, ratio, stat), verdict(ms <= 2000)
	}}
}

// startupRow is the process time of one command of the real binary, with
// an empty Go program's on the same machine beside it.
func startupRow(cmd, unit string) row {
	return row{cmd + ": process time (user + sys)", "≤ 15 ms",
		func(r results) (string, string) {
			ms, ok := r.get("Startup", unit)
			if !ok {
				return "not run", "—"
			}
			floor, _ := r.get("Startup", "ms-cpu-floor")
			return fmt.Sprintf("%.1f ms (an empty Go program: %.1f ms)", ms, floor), verdict(ms <= 15)
		}}
}

// cacheRows are the prompt cache's floor per engine kind: a debate of
// N=3, R=2 on a P of 20k tokens, every call on one engine, against the
// fake provider emulating that API's cache (engine/BenchmarkPromptCache).
var cacheRows = []row{
	cacheRow("anthropic", "the Messages API, its cache breakpoint on the shared block"),
	cacheRow("openai", "an OpenAI-compatible server's automatic prefix cache"),
	cacheRow("gemini", "the gemini CLI, Gemini's implicit cache"),
}

// cacheRow is one kind's figures: P billed at the full input price per
// engine (in units of |P|) and the input cost against the same debate
// with nothing cached.
func cacheRow(kind, what string) row {
	return row{fmt.Sprintf("prompt cache, %s kind (%s), N=3, R=2, |P| = 20k tokens: P billed at full price per engine / input cost ÷ uncached", kind, what),
		"≤ 1.2×|P| / ≤ 35 %",
		func(r results) (string, string) {
			full, ok := r.get("PromptCache/"+kind, "fullP/engine")
			if !ok {
				return "not run", "—"
			}
			pct, _ := r.get("PromptCache/"+kind, "input-cost-%")
			calls, _ := r.get("PromptCache/"+kind, "calls")
			return fmt.Sprintf("%.2f×|P| / %.0f %% (%.0f calls)", full, pct, calls), verdict(full <= 1.2 && pct <= 35)
		}}
}

// versionFloorRow is `moot version`'s process time against a program that
// only links the same Markdown renderer, measured in the same run, with
// the empty program's beside them.
var versionFloorRow = row{"moot version ÷ a bare program linking the same renderer (glamour); the empty-program floor", "≤ 1.05",
	func(r results) (string, string) {
		ms, ok := r.get("Startup", "ms-cpu-version")
		bare, okb := r.get("Startup", "ms-cpu-glamour")
		if !ok || !okb || bare <= 0 {
			return "not run", "—"
		}
		floor, _ := r.get("Startup", "ms-cpu-floor")
		return fmt.Sprintf("%.2f× (%.1f ms vs %.1f ms; an empty Go program: %.1f ms)", ms/bare, ms, bare, floor), verdict(ms/bare <= 1.05)
	}}

// depsFloorRow splits versionFloorRow's gap: moot version against a
// program that links every package moot links outside its module and does
// nothing (what moot's own code costs), and that program against the
// renderer's floor (what the other dependencies cost).
var depsFloorRow = row{"where that gap lies: moot version ÷ a program linking all of moot's dependencies and nothing of its own / that program ÷ the renderer's floor", "reported",
	func(r results) (string, string) {
		ms, ok := r.get("Startup", "ms-cpu-version")
		deps, okd := r.get("Startup", "ms-cpu-deps")
		bare, okb := r.get("Startup", "ms-cpu-glamour")
		if !ok || !okd || !okb || deps <= 0 || bare <= 0 {
			return "not run", "—"
		}
		return fmt.Sprintf("%.3f× (moot's own code) / %.3f× (its other dependencies; %.1f ms vs %.1f ms)", ms/deps, deps/bare, deps, bare), "—"
	}}

// initRow is how much of `moot version`'s start is package initialisers,
// and how much of that the syntax highlighter's.
var initRow = row{"moot version: package initialisers (inittrace clock) / of which chroma's", "reported",
	func(r results) (string, string) {
		all, ok := r.get("Startup", "ms-init")
		if !ok {
			return "not run", "—"
		}
		chroma, _ := r.get("Startup", "ms-init-chroma")
		return fmt.Sprintf("%.1f ms / %.1f ms", all, chroma), "—"
	}}

func main() {
	markdown := flag.Bool("markdown", false, "print a Markdown table")
	flag.Parse()
	rows := append(append(rows, overheadRows...), cacheRows...)
	r, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	if *markdown {
		fmt.Println("| figure | target | result | |")
		fmt.Println("|---|---|---|---|")
		for _, x := range rows {
			res, verdict := x.result(r)
			cell := strings.NewReplacer("|", `\|`).Replace // |P| would split a cell
			fmt.Printf("| %s | %s | %s | %s |\n", cell(x.figure), cell(x.target), cell(res), verdict)
		}
		return
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tTARGET\tRESULT\t")
	for _, x := range rows {
		res, verdict := x.result(r)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", x.figure, x.target, res, verdict)
	}
	tw.Flush()
}
