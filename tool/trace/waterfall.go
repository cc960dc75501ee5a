package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"signal-bot/pkg/telemetry"
)

// row is one line of the waterfall: a span at its depth in the tree.
type row struct {
	span    span
	depth   int
	orphan  bool   // its parent is not in the trace
	foreign string // the span's service when it is not the root's (a hook's)
}

// rows orders the spans as a tree, depth first, children by start time.
// Spans whose parent Jaeger does not hold come last, marked.
func rows(spans []span) []row {
	ids := map[string]bool{}
	children := map[string][]span{}
	for _, s := range spans {
		ids[s.SpanID] = true
	}
	var tops, orphans []span
	for _, s := range spans {
		switch {
		case s.ParentID == "":
			tops = append(tops, s)
		case !ids[s.ParentID]:
			orphans = append(orphans, s)
		default:
			children[s.ParentID] = append(children[s.ParentID], s)
		}
	}
	byStart := func(a, b span) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.Name, b.Name), cmp.Compare(a.SpanID, b.SpanID))
	}
	var out []row
	bot := rootService(spans)
	var walk func(s span, depth int, orphan bool)
	walk = func(s span, depth int, orphan bool) {
		r := row{span: s, depth: depth, orphan: orphan}
		if s.Service != bot {
			r.foreign = s.Service
		}
		out = append(out, r)
		kids := children[s.SpanID]
		slices.SortFunc(kids, byStart)
		for _, k := range kids {
			walk(k, depth+1, false)
		}
	}
	slices.SortFunc(tops, byStart)
	slices.SortFunc(orphans, byStart)
	for _, s := range tops {
		walk(s, 0, false)
	}
	for _, s := range orphans {
		walk(s, 0, true)
	}
	return out
}

// label is the span's name with its depth and what kind of leg it is.
func (r row) label() string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", r.depth))
	b.WriteString(r.span.Name)
	if v, ok := r.span.attr(telemetry.AttrLeg); ok {
		b.WriteString(" [" + v.AsString() + "]")
	}
	if v, ok := r.span.attr(telemetry.AttrCommand); ok {
		b.WriteString(" " + v.AsString())
	}
	if v, ok := r.span.attr(attribute.Key("http.response.status_code")); ok {
		b.WriteString(fmt.Sprintf(" %d", v.AsInt64()))
	}
	if r.span.Failed {
		b.WriteString(" ERROR")
	}
	if r.foreign != "" {
		b.WriteString(" (" + r.foreign + ")")
	}
	if r.orphan {
		b.WriteString(" (parent not in Jaeger)")
	}
	return b.String()
}

// render writes one trace: a header, the waterfall on a width-column time
// axis from the first start to the last end, and the timing block.
func render(w io.Writer, spans []span, width int) error {
	if len(spans) == 0 {
		return fmt.Errorf("no spans")
	}
	rs := rows(spans)
	t0, t1 := spans[0].Start, spans[0].End
	for _, s := range spans {
		t0 = minTime(t0, s.Start)
		t1 = maxTime(t1, s.End)
	}
	total := t1.Sub(t0)
	labelW := len("span")
	for _, r := range rs {
		labelW = max(labelW, len([]rune(r.label())))
	}
	b, ok := block(spans)
	head := "trace " + spans[0].TraceID
	if ok {
		head += fmt.Sprintf("  !%s %s", b.Command, b.Outcome)
	}
	fmt.Fprintf(w, "%s  %s  %s ms\n", head, t0.Format("2006-01-02 15:04:05.000 MST"), ms(total))
	fmt.Fprintf(w, "%-*s %10s %10s  |%s|\n", labelW, "span", "start ms", "ms", axis(width, total))
	for _, r := range rs {
		fmt.Fprintf(w, "%s %10s %10s  |%s|\n", pad(r.label(), labelW), ms(r.span.Start.Sub(t0)), ms(r.span.End.Sub(r.span.Start)),
			bar(width, total, r.span.Start.Sub(t0), r.span.End.Sub(t0)))
	}
	for _, r := range rs {
		if r.span.Failed && r.span.Error != "" {
			fmt.Fprintf(w, "error in %s: %s\n", r.span.Name, r.span.Error)
		}
	}
	if !ok {
		fmt.Fprintln(w, "no timing block: the trace has no root frame span")
		return nil
	}
	fmt.Fprintln(w, blockLine(b))
	fmt.Fprintf(w, "own_ms = queue + dispatch + handler - send - upstream = %.3f + %.3f + %.3f - %.3f - %.3f = %.3f\n",
		b.QueueMS, b.DispatchMS, b.HandlerMS, b.SendMS, b.UpstreamMS, b.OwnMS)
	if b.SendWaitMS > 0 {
		fmt.Fprintf(w, "of which send_wait_ms = %.3f: the reply held for the send budget or a 429 pause (span %s), the rest %.3f\n",
			b.SendWaitMS, telemetry.SpanSendWait, b.OwnMS-b.SendWaitMS)
	}
	return nil
}

// blockLine is the timing block as the bot's served line writes it.
func blockLine(b telemetry.Block) string {
	return fmt.Sprintf("command=%s queue_ms=%s dispatch_ms=%s handler_ms=%s send_ms=%s upstream_ms=%s send_wait_ms=%s own_ms=%s round_trip_ms=%s trace_id=%s",
		b.Command, num(b.QueueMS), num(b.DispatchMS), num(b.HandlerMS), num(b.SendMS), num(b.UpstreamMS), num(b.SendWaitMS), num(b.OwnMS), num(b.RoundTripMS), b.TraceID)
}

// bar draws [from, to) on a width-cell axis of total: full cells, and a thin
// mark for a span shorter than a cell so that every span shows.
func bar(width int, total, from, to time.Duration) string {
	cells := []rune(strings.Repeat(" ", width))
	if total <= 0 {
		cells[0] = '▏'
		return string(cells)
	}
	scale := float64(width) / float64(total)
	a := min(int(math.Floor(float64(from)*scale)), width-1)
	z := min(int(math.Ceil(float64(to)*scale)), width)
	if z-a <= 1 && float64(to-from)*scale < 0.5 {
		cells[a] = '▏'
		return string(cells)
	}
	for i := a; i < max(z, a+1); i++ {
		cells[i] = '█'
	}
	return string(cells)
}

// axis labels the time axis with 0 and its length.
func axis(width int, total time.Duration) string {
	end := ms(total) + " ms"
	gap := max(width-len("0")-len(end), 1)
	return "0" + strings.Repeat("─", gap) + end
}

func pad(s string, w int) string { return s + strings.Repeat(" ", max(w-len([]rune(s)), 0)) }

// ms writes a duration in milliseconds with three decimals (µs).
func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d.Round(time.Microsecond))/1e6) }

// num writes a block value as the served line (slog) does.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
