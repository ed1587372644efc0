package tea

// This file is jobtop's, not upstream's: see JOBTOP.md.

// UnknownCSISequenceMsg is a CSI sequence the input reader does not name
// as a key (ctrl+f1 is CSI 1;5P, shift+pgup CSI 5;2~), as it came: the
// bytes from ESC [ to the final byte. Upstream reports it to Update as
// an unexported type; this name lets a program that types into another
// one (jobtop's input mode) pass the sequence on.
type UnknownCSISequenceMsg = unknownCSISequenceMsg
