package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"text/tabwriter"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/upstream"
)

// byteRow sums the pictures of one format fetched at one size.
type byteRow struct {
	n                     int
	before, after, ms     []float64
	sendBefore, sendAfter []float64
}

// measureBytes fetches n pictures at each Cat API size from a zero-latency
// fake Cat API, as the bot would, shrinks each with opts, and prints the
// bytes before and after per format, with the send time the simulator's
// default profile charges for each.
func measureBytes(ctx context.Context, w io.Writer, n int, opts pictures.Options, up upstream.Config) error {
	fake := fakeup.New(fakeup.Config{Seed: 2})
	base, err := fake.Start("127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("start fake Cat API: %w", err)
	}
	defer fake.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	lat := sim.DefaultLatency()
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\tformat\tn\tbytes before\tbytes after\tafter/before\tshrink ms p50\tsend ms before\tsend ms after\t")
	for _, size := range []string{"med", "full"} {
		cat, err := upstream.NewCatAPI(&http.Client{Transport: tr}, upstream.CatAPIConfig{BaseURL: base, Size: size, MaxBytes: up.MaxImageBytes})
		if err != nil {
			return err
		}
		rows := map[string]*byteRow{}
		for range n {
			img, err := cat.Random(ctx)
			if err != nil {
				return fmt.Errorf("fetch a %s picture: %w", size, err)
			}
			start := time.Now()
			r, err := pictures.Shrink(img.Data, opts)
			if err != nil {
				return fmt.Errorf("shrink %s: %w", img.Filename, err)
			}
			row := rows[img.MIME]
			if row == nil {
				row = &byteRow{}
				rows[img.MIME] = row
			}
			row.n++
			row.ms = append(row.ms, float64(time.Since(start).Microseconds())/1000)
			row.before = append(row.before, float64(len(img.Data)))
			row.after = append(row.after, float64(len(r.Data)))
			row.sendBefore = append(row.sendBefore, sendMS(lat, img.MIME, img.Data))
			row.sendAfter = append(row.sendAfter, sendMS(lat, r.MIME, r.Data))
		}
		all := &byteRow{}
		for _, mime := range []string{"image/jpeg", "image/png", "image/gif"} {
			if r := rows[mime]; r != nil {
				printByteRow(tw, size, mime, r)
				all.n += r.n
				all.before, all.after, all.ms = append(all.before, r.before...), append(all.after, r.after...), append(all.ms, r.ms...)
				all.sendBefore, all.sendAfter = append(all.sendBefore, r.sendBefore...), append(all.sendAfter, r.sendAfter...)
			}
		}
		printByteRow(tw, size, "all", all)
	}
	return tw.Flush()
}

func printByteRow(w io.Writer, size, format string, r *byteRow) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%.0f\t%.0f\t%.2f\t%.1f\t%.0f\t%.0f\t\n", size, format, r.n,
		mean(r.before), mean(r.after), mean(r.after)/mean(r.before), percentile(r.ms, 50), mean(r.sendBefore), mean(r.sendAfter))
}

// sendMS is what the simulator charges for a /v2/send of one picture: its
// data URI in a JSON body with a short caption and a group recipient (about
// 150 bytes besides the data URI).
func sendMS(lat sim.Latency, mime string, data []byte) float64 {
	body := len(signalapi.DataURI(mime, "picture.jpg", data)) + 150
	return float64(lat.SendCost(body).Microseconds()) / 1000
}
