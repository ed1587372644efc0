package ui

import (
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"strconv"
	"strings"
	"time"

	"jobtop/jobs"
)

// HostStatus is how one host of a HostsEngine is connected.
type HostStatus struct {
	Name      string
	Connected bool
	// RetryAt is when the next attempt to connect is due, while not
	// connected; zero while an attempt is under way.
	RetryAt time.Time
	// Replaced counts the reconnections that found another instance on
	// the host than the one before: the old one ended, and its jobs with
	// it. Instance names the one there now ("serve (pid 4242)").
	Replaced int
	Instance string
	// ShutDown says the host's instance shut down (its jobs stopped on
	// purpose): it is not connected to again.
	ShutDown bool
	// Why says, while not connected, why the last attempt failed, in
	// one line ("ssh said: me@b: Permission denied (publickey).");
	// "" when there is nothing to say but that the connection broke.
	Why string
	// MaxRunning is the host's limit on jobs running at once (0: none),
	// kept current by its events stream; with several hosts the status
	// bar shows it beside the host's name.
	MaxRunning int
}

// HostsEngine is an engine over the jobs of several hosts (jobtop attach
// --host a --host b): each job carries its host (jobs.Info.Host, and
// HostID, its ID there, which the table shows). The status bar shows
// each host's connection; the engine's event stream sends a batch, empty
// if need be, when one changes, and each second while one is down.
type HostsEngine interface {
	Engine
	HostStatus() []HostStatus
}

// shownID is the ID a job is shown with: its ID on its host, when the
// engine holds several hosts' jobs.
func shownID(info jobs.Info) jobs.ID {
	if info.Host != "" {
		return info.HostID
	}
	return info.ID
}

// jobLabel names a job in notices and headers: "job 3 web", and
// "job 3 web on b" when it runs on a host of several.
func jobLabel(info jobs.Info) string {
	s := "job " + shownID(info).String() + " " + label(info.Name)
	if info.Host != "" {
		s += " on " + label(info.Host)
	}
	return s
}

// hostsView is the status bar's part about hosts: each host's name (with
// several hosts, with its limit on jobs running at once: "b: at most 4";
// one host's is the engine's, shown beside the counts), and for one that
// is down, "b: disconnected, retrying in 2s" (then
// "reconnecting" during the attempt), and why the last attempt failed,
// when it did ("; ssh said: me@b: Permission denied (publickey)."). It
// is "" for an engine of one instance.
func (m *Model) hostsView() string {
	he, ok := m.engine.(HostsEngine)
	if !ok {
		return ""
	}
	var parts []string
	hosts := he.HostStatus()
	for _, h := range hosts {
		name := label(h.Name)
		if h.Connected && len(hosts) > 1 && h.MaxRunning > 0 {
			parts = append(parts, m.pal.muted.Wrap(name+": at most "+strconv.Itoa(h.MaxRunning)))
			continue
		}
		if h.Connected {
			parts = append(parts, m.pal.muted.Wrap(name))
			continue
		}
		if h.ShutDown {
			parts = append(parts, m.pal.muted.Wrap(name+": shut down"))
			continue
		}
		what := "reconnecting"
		if !h.RetryAt.IsZero() {
			left := max(h.RetryAt.Sub(m.now()), time.Second)
			what = "retrying in " + strconv.Itoa(int((left+time.Second-1)/time.Second)) + "s"
		}
		if h.Why != "" {
			what += "; " + sanitize(h.Why, false)
		}
		parts = append(parts, m.pal.errText.Wrap(name+": disconnected, "+what))
	}
	return strings.Join(parts, " ")
}

// noteReplacedHosts says in the status bar when a host's connection came
// back to another instance than the one it had: the old one's jobs left
// the table with it, and would otherwise go without a word.
func (m *Model) noteReplacedHosts() tea.Cmd {
	he, ok := m.engine.(HostsEngine)
	if !ok {
		return nil
	}
	if m.replacedSeen == nil {
		m.replacedSeen = make(map[string]int)
	}
	var cmd tea.Cmd
	hosts := he.HostStatus()
	for _, h := range hosts {
		if h.Replaced <= m.replacedSeen[h.Name] {
			continue
		}
		m.replacedSeen[h.Name] = h.Replaced
		by := ""
		if h.Instance != "" {
			by = " by " + h.Instance
			if len(hosts) == 1 && m.cfg.Instance != "" {
				m.cfg.Instance = h.Instance + " on " + h.Name // the quit prompt names it
			}
		}
		m.setNotice("the jobtop instance on "+label(h.Name)+" was replaced"+by+": its jobs ended with it", true)
		m.notice.replacedHost = h.Name
		cmd = m.alert(m.notice.text)
	}
	return cmd
}

// jobRef names a job of the table by ID: "job 3", or "job 3 on b".
func (m *Model) jobRef(id jobs.ID) string {
	info, ok := m.table.Get(id)
	if !ok {
		return "job " + id.String()
	}
	s := "job " + shownID(info).String()
	if info.Host != "" {
		s += " on " + label(info.Host)
	}
	return s
}

// remoteLog reports whether a job's log file is on another host: the job
// runs on a host of several and its log is not on this machine.
func remoteLog(info jobs.Info) bool {
	if info.Host == "" {
		return false
	}
	_, err := os.Stat(info.LogPath)
	return err != nil
}
