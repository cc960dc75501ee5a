package sim_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"signal-bot/pkg/sim"
)

// A test starts the simulator on loopback, points the code under test at its URL, and
// asserts on the requests the simulator recorded.
func Example() {
	s := sim.New(sim.Config{Lossless: true}) // zero latency, no faults
	defer s.Close()
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}

	// The code under test would do this after reading a frame from /v1/receive/<number>.
	body := `{"number":"+48500000001","recipients":["` + sim.TestGroup().ID() + `"],"message":"Miau!"}`
	res, err := http.Post(url+"/v2/send", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sent, err := s.WaitSent(ctx, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.StatusCode, sent[0].Group, sent[0].Message)
	// Output: 201 testbot Miau!
}
