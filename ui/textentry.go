package ui

import tea "github.com/charmbracelet/bubbletea"

// asText makes printable input text in a text field (the add prompt, the
// "/" prompt). Runes that arrive in one read without bracketed paste (a
// fast typist, a paste by xdotool or tmux paste-buffer, a slow ssh link)
// come as one key message per word, and a word that spells a key name
// ("up", "end", "home", "esc", "enter", "tab") would match that key's
// binding: the prompt's own or the text field's. Marking the runes as
// pasted stops that: bubbletea writes pasted runes in brackets for
// key.Matches, so no binding matches them, and the text field inserts
// them. Keys with alt held stay keys (alt+b, alt+f move by words).
func asText(k tea.KeyMsg) tea.KeyMsg {
	if k.Type == tea.KeyRunes && !k.Alt {
		k.Paste = true
	}
	return k
}
