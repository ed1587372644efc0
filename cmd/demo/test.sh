# A test run that fails: two passes, a failure with its diff, exit 2.
green='\033[32m' red='\033[31m' bold='\033[1m' reset='\033[0m'
sleep 1
for t in TestParseConfig TestStoreRoundTrip TestRetryBackoff; do
	echo "=== RUN   $t"
	sleep 0.6
	if [ "$t" = TestRetryBackoff ]; then
		echo "    backoff_test.go:42: delay after 3 retries:"
		echo "        want: 400ms"
		echo "         got: 800ms"
		printf "${red}--- FAIL${reset}: %s (0.61s)\n" "$t"
	else
		printf "${green}--- PASS${reset}: %s (0.60s)\n" "$t"
	fi
done
printf "${red}${bold}FAIL${reset}\tdemo-app/internal\t1.84s\n"
exit 2
