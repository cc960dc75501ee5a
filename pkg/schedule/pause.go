package schedule

import "time"

// pauseLog keeps the paused slots' log line to one a minute, with the count
// since the last line: a long pause over a dense plan skips a slot every
// few seconds.
type pauseLog struct {
	last  time.Time
	since int
}

// skipPaused records a slot due inside an admin's pause as done without
// posting it, counts it (OutcomePaused) and logs it, a line a minute at most
// with how many were skipped since the last line.
func (s *Scheduler) skipPaused(a action, now time.Time) {
	_, _ = s.write(doneRecord{a.slot.String(), a.due}) // logged
	s.d.Count(OutcomePaused)
	s.mu.Lock()
	s.pauseLog.since++
	logNow := s.pauseLog.last.IsZero() || now.Sub(s.pauseLog.last) >= time.Minute
	since := s.pauseLog.since
	if logNow {
		s.pauseLog.last, s.pauseLog.since = now, 0
	}
	s.mu.Unlock()
	if logNow {
		s.d.Log.Info("scheduled post skipped: due inside an admin's pause (!bot pauza)",
			"slot", a.slot.String(), "due", a.due, "paused_until", a.paused, "skipped_since_last_line", since)
	}
}
