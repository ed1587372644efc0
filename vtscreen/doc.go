// Package vtscreen holds what screen mode shares between the engine and
// the UI, with no terminal emulator in it: the Snapshot of a screen, the
// InputModes a program asked for, and the Detector, the cheap scanner the
// job's read path uses to see a program enter and leave the alternate
// screen (or address the cursor) and which input modes (application
// cursor keys, bracketed paste, mouse) it asked for, across read
// boundaries, without emulating anything. The emulator itself is
// vtscreen/vtfast.
//
// It imports no jobtop package and nothing of the UI: jobs/ feeds it, ui/
// reads Snapshots.
package vtscreen
