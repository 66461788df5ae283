{{/*
The hider: scoring's go test starts every test binary through this
script (go test -exec /opt/score/hide) while it compiles, in a sandbox
where no code of the agent runs. In a folder with hidden tests it copies
the binary out instead of running it: its folder and environment to
/work/bins/N.env, the binary to N.test, its arguments to N.args. Each
start takes the next free N (the .env file is created atomically with
set -C), so a package tested twice, or by a later go test, keeps both.
Any other binary exits 0 unrun. hideScript fills in the folders, each
quoted as one word of sh; this comment renders to nothing.
*/ -}}
#!/bin/sh
case "$PWD" in
{{range .}}{{quote .}}) ;;
{{end}}*) exit 0 ;;
esac
i=0
until (set -C; { printf '%s\0' "$PWD"; env -0; } >/work/bins/$i.env) 2>/dev/null; do
	[ -e /work/bins/$i.env ] || exit 1
	i=$((i+1))
done
cp "$1" /work/bins/$i.test && shift && printf '%s\0' "$@" >/work/bins/$i.args
