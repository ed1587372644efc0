package jobs

// utf8Input is 0: FreeBSD's terminals have no such flag (a backspace
// erases one byte).
const utf8Input = 0
