package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// The status bar's notices last as long as what they say is news:
//   - a transient one (flash: the confirmation of an action, a search
//     that wrapped) goes at the next key, or after noticeLife;
//   - one about the split (which jobs it shows) goes when the split
//     changes;
//   - the others (errors, a key refused with why and what to do instead
//     (refuse), a job's end or health, jobs started from outside, a
//     reload's summary) stay until the next notice or until what they
//     tell changes (events.go).

// noticeLife is how long a transient notice shows without a key.
const noticeLife = 5 * time.Second

// noticeExpiryMsg says a transient notice may have outlived noticeLife.
type noticeExpiryMsg struct{}

// noticeTimer is the command that sends noticeExpiryMsg after d.
var noticeTimer = func(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return noticeExpiryMsg{} })
}

// flash shows a transient notice.
func (m *Model) flash(text string) {
	m.notice = notice{text: text, transient: true, at: m.now()}
}

// refuse says why a key does nothing here, and what to do instead: as
// an error, it stays until the next notice and comes before the counts
// when it is long (rev51: "no job file to reload: ..." went at the next
// key, cut before its hint).
func (m *Model) refuse(text string) {
	m.setNotice(text, true)
	m.notice.refusedKey = refusing
}

// refusing marks a notice refuse set while a key is handled, until
// dropWorkedRefusal names the key.
const refusing = "\x00"

// keysAct says whether a key goes to the screen's actions: not typed
// into a prompt, a search, a job, a panel or a question.
func (m *Model) keysAct() bool {
	return !m.input.takesKeys() && m.quit == quitNone && m.panel == nil && m.confirm == nil && m.prompt == nil && m.find == nil
}

// dropWorkedRefusal keeps a refusal the key k just made with the key's
// name, and takes down one k made before when k has now worked (set no
// notice): "nothing to split: mark jobs with space" stayed over the
// split that s then showed. Another key leaves it to be read.
func (m *Model) dropWorkedRefusal(before notice, k string) {
	switch {
	case m.notice != before:
		if m.notice.refusedKey == refusing {
			m.notice.refusedKey = k
		}
	case before.refusedKey == k:
		m.notice = notice{}
	}
}

// dropFlash takes a transient notice down (at a key).
func (m *Model) dropFlash() {
	if m.notice.transient {
		m.notice = notice{}
	}
}

// timeFlash returns the timer of a transient notice that has none yet.
func (m *Model) timeFlash() tea.Cmd {
	if !m.notice.transient || m.notice.timed {
		return nil
	}
	m.notice.timed = true
	return noticeTimer(noticeLife)
}

// handleNoticeExpiry takes a transient notice down once it is
// noticeLife old. Each one has its own timer, so one set since, younger,
// waits for its own.
func (m *Model) handleNoticeExpiry() {
	if m.notice.transient && !m.now().Before(m.notice.at.Add(noticeLife)) {
		m.notice = notice{}
	}
}

// dropSplitNotice takes down the notice about the split once the split
// it told of is gone.
func (m *Model) dropSplitNotice() {
	if m.notice.split {
		m.notice = notice{}
	}
}
