# A linter that reports on stderr (tinted in the output pane) and passes.
echo "linting 42 files"
for f in api/handler.go store/cache.go ui/table.go; do
	sleep 0.7
	echo "warning: $f:12: exported function Render should have a comment" >&2
done
echo "done: 0 errors, 3 warnings"
