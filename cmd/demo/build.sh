# A fake build: coloured steps, each with a progress bar redrawn with \r.
green='\033[32m' cyan='\033[36m' bold='\033[1m' dim='\033[2m' reset='\033[0m'
printf "${bold}building demo-app${reset} (6 packages)\n"
n=0
for pkg in internal/config internal/store internal/api cmd/server web/assets web/ui; do
	n=$((n + 1))
	bar="" i=0
	while [ $i -le 20 ]; do
		printf "\r${cyan}[%-20s]${reset} %3d%% compiling %s" "$bar" $((i * 5)) "$pkg"
		bar="${bar}#" i=$((i + 1))
		sleep 0.08
	done
	printf "\r${green}✓${reset} %-30s ${dim}%d.%ds${reset}\n" "$pkg" $((n % 3)) $((n * 7 % 10))
done
printf "${green}${bold}build succeeded${reset}: bin/demo-app\n"
