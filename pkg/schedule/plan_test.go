package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "", want: ""},
		{in: "rodzina=kot@08:00,testbot=cat@12:30", want: "rodzina=kot@08:00,testbot=cat@12:30"},
		{in: " rodzina = !KOT @ 08:00 , ", want: "rodzina=kot@08:00"},
		{in: "rodzina=kot@08:00,rodzina=cat@08:00", want: "rodzina=kot@08:00,rodzina=cat@08:00"},
		{in: "rodzina=kot@00:00,a=b@23:59", want: "rodzina=kot@00:00,a=b@23:59"},
		{in: "rodzina=kot@08:00,rodzina=kot@08:00", err: "listed twice"},
		{in: "rodzina=kot", err: "not chat=command@HH:MM"},
		{in: "kot@08:00", err: "not chat=command@HH:MM"},
		{in: "=kot@08:00", err: "not chat=command@HH:MM"},
		{in: "rodzina=@08:00", err: "not chat=command@HH:MM"},
		{in: "rodzina=kot@8:00", err: "HH:MM"},
		{in: "rodzina=kot@24:00", err: "HH:MM"},
		{in: "rodzina=kot@08:60", err: "HH:MM"},
		{in: "rodzina=kot@08-00", err: "HH:MM"},
		{in: "rodzina=kot@+1:00", err: "HH:MM"},
	} {
		slots, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) error = %v; want one saying %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || Format(slots) != tc.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", tc.in, Format(slots), err, tc.want)
		}
	}
}

func TestSlotTimes(t *testing.T) {
	waw, err := time.LoadLocation("Europe/Warsaw")
	if err != nil {
		t.Skipf("no zone database: %v", err)
	}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04:05", s, waw)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	eight := Slot{Chat: "r", Command: "kot", Hour: 8}
	for _, tc := range []struct {
		name          string
		slot          Slot
		t             time.Time
		after, before time.Time
	}{
		{"before the slot", eight, at("2026-12-02 07:59:57"), at("2026-12-02 08:00:00"), at("2026-12-01 08:00:00")},
		{"at the slot", eight, at("2026-12-02 08:00:00"), at("2026-12-03 08:00:00"), at("2026-12-02 08:00:00")},
		{"after the slot", eight, at("2026-12-02 08:00:01"), at("2026-12-03 08:00:00"), at("2026-12-02 08:00:00")},
		{"across a year", eight, at("2026-12-31 09:00:00"), at("2027-01-01 08:00:00"), at("2026-12-31 08:00:00")},
		// 2026-03-29: 02:00 becomes 03:00; a 02:30 slot comes at 03:30 that day, once.
		{"a time the clock skips", Slot{Hour: 2, Minute: 30}, at("2026-03-29 01:00:00"),
			time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC), at("2026-03-28 02:30:00")},
		// 2026-10-25: 03:00 becomes 02:00 again; a 02:30 slot comes once, at
		// the one of the two that time.Date picks.
		{"a time the clock repeats", Slot{Hour: 2, Minute: 30}, at("2026-10-25 01:00:00"),
			time.Date(2026, 10, 25, 2, 30, 0, 0, waw), at("2026-10-24 02:30:00")},
		{"after a time the clock repeats", Slot{Hour: 2, Minute: 30}, time.Date(2026, 10, 25, 2, 30, 0, 0, waw),
			at("2026-10-26 02:30:00"), time.Date(2026, 10, 25, 2, 30, 0, 0, waw)},
	} {
		if got := tc.slot.After(tc.t, waw); !got.Equal(tc.after) {
			t.Errorf("%s: After(%v) = %v; want %v", tc.name, tc.t, got, tc.after)
		}
		if got := tc.slot.AtOrBefore(tc.t, waw); !got.Equal(tc.before) {
			t.Errorf("%s: AtOrBefore(%v) = %v; want %v", tc.name, tc.t, got, tc.before)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		errs []string
	}{
		{Config{Plan: "rodzina=kot@08:00", Zone: "Europe/Warsaw", Grace: time.Hour}, nil},
		{Config{Zone: ":Europe/Warsaw"}, nil},
		{Config{Zone: "UTC", Grace: MaxGrace}, nil},
		{Config{Zone: "Mars/Olympus"}, []string{`TZ must be a time zone name such as Europe/Warsaw, got "Mars/Olympus"`}},
		{Config{Plan: "rodzina=kot@8"}, []string{"SCHEDULE: "}},
		{Config{Grace: -time.Second}, []string{"SCHEDULE_GRACE must be 0s to 23h0m0s"}},
		{Config{Grace: 24 * time.Hour, Zone: "Nowhere", Plan: "x"}, []string{"SCHEDULE_GRACE", "TZ must", "SCHEDULE: "}},
	} {
		err := tc.c.Validate()
		if len(tc.errs) == 0 {
			if err != nil {
				t.Errorf("%+v: %v", tc.c, err)
			}
			continue
		}
		for _, want := range tc.errs {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%+v: error %v; want one saying %q", tc.c, err, want)
			}
		}
	}
}

// Every slot Parse refuses is a *SlotError naming the slot as written and
// its problem, so a reply can say why in its own language.
func TestParseProblems(t *testing.T) {
	for plan, want := range map[string]Problem{
		"rodzina=kot":                           ProblemForm,
		"=kot@08:00":                            ProblemForm,
		"rodzina=kot@8:00":                      ProblemTime,
		"rodzina=kot@24:00":                     ProblemTime,
		"rodzina=kot@08:00, rodzina=!kot@08:00": ProblemTwice,
	} {
		_, err := Parse(plan)
		var se *SlotError
		if !errors.As(err, &se) || se.Problem != want || se.Item == "" {
			t.Errorf("Parse(%q) = %v; want a *SlotError with problem %d", plan, err, want)
		}
	}
}
