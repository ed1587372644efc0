package keeper

// selfPath names this program's executable; on Linux the kernel's link
// works even after the file was replaced or deleted (go install while
// running).
func selfPath() string { return "/proc/self/exe" }
