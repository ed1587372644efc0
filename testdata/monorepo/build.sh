#!/bin/sh
# A stand-in for a package build: prints its steps and succeeds.
pkg=$(basename "$PWD")
for step in compile link package; do
	printf '%s: %s\n' "$pkg" "$step"
	sleep 1
done
printf '%s: built\n' "$pkg"
