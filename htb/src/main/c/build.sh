#!/usr/bin/env bash
# Builds libgridstat-htb.so for this machine into <native-dir>/linux-<arch>/ and writes the bundle's
# Bundle-NativeCode header into <bnd-include> for bnd. Where a tool or header is missing it says what
# in one line, builds nothing and exits 0: the bundle is then pure Java and Htb.open() reports
# "no native library for ...".
# usage: build.sh <native-dir> <bnd-include>
set -euo pipefail

native_dir=$1
bnd_include=$2
src=$(cd "$(dirname "$0")" && pwd)
rm -f "$bnd_include"

skip() {
  echo "gridstat-htb: $1 missing; the native library is not built and kernel shaping will be unavailable"
  exit 0
}

[ "$(uname -s)" = Linux ] || skip "Linux (the build host is $(uname -s))"
case "$(uname -m)" in
  x86_64) arch=x86_64 processor=x86-64 ;;
  aarch64) arch=aarch64 processor=aarch64 ;;
  *) skip "support for the processor $(uname -m)" ;;
esac
command -v gcc >/dev/null 2>&1 || skip gcc
java_home=${JAVA_HOME:-}
[ -n "$java_home" ] && [ -f "$java_home/include/jni.h" ] && [ -f "$java_home/include/linux/jni_md.h" ] \
  || skip "jni.h (under JAVA_HOME=${java_home:-, which is unset})"
for h in linux/rtnetlink.h linux/pkt_sched.h linux/pkt_cls.h linux/gen_stats.h; do
  echo "#include <$h>" | gcc -E -x c - >/dev/null 2>&1 || skip "<$h> (linux-libc-dev)"
done

out=$native_dir/linux-$arch/libgridstat-htb.so
mkdir -p "$(dirname "$out")"
# rebuilt only when a source (or this script) is newer than the library
if [ ! -f "$out" ] || [ -n "$(find "$src" -newer "$out" -type f | head -n1)" ]; then
  gcc -O2 -fPIC -shared -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -fvisibility=hidden \
    -I"$java_home/include" -I"$java_home/include/linux" \
    -o "$out.tmp" "$src"/*.c -lpthread
  mv -f "$out.tmp" "$out"
fi
echo "Bundle-NativeCode: native/linux-$arch/libgridstat-htb.so; osname=Linux; processor=$processor, *" >"$bnd_include"
