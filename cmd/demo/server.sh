# A chatty server: a log line every 300 ms until stopped, then a graceful
# shutdown (try x on it, then r).
trap 'echo "received SIGTERM, draining connections"; sleep 0.5; echo "bye"; exit 0' TERM INT
echo "listening on http://127.0.0.1:8080"
n=0
while :; do
	n=$((n + 1))
	set -- / /api/jobs /api/jobs/3 /healthz /static/app.js /api/logs?tail=50
	shift $((n % 6))
	status=200
	[ $((n % 11)) -eq 0 ] && status=404
	printf '%s INFO  GET %-22s %d %3dms\n' "$(date +%H:%M:%S)" "$1" $status $((n * 7 % 90 + 2))
	sleep 0.3
done
