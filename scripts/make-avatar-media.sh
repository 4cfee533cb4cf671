#!/usr/bin/env bash
# Regenerates the emulator's pre-encoded avatar media (committed, small) with ffmpeg (Debian: apt-get install ffmpeg).
# Not run by the build: the emulator only reads these files. See docs/avatar.md ("Media").
#   avatar-face.ivf   VP8, 320x240, 15 fps, 2 s loop, a key frame every second, no alt-ref (invisible) frames
#   speech-tone.ogg   Opus 48 kHz mono, 20 ms packets, 1 s of a 220 Hz tone under a 3 Hz tremolo (sounds like "speech")
#   silence.ogg       Opus 48 kHz mono, 20 ms packets of digital silence
set -euo pipefail
OUT="$(cd "$(dirname "$0")/.." && pwd)/emulator/avatar/media"
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -loglevel error -y -bitexact)

# A face drawn per pixel with geq (T = time): a skin-coloured disc, eyes that blink once a second, a mouth that
# opens and closes, plus the frame counter (drawtext), so every frame differs and a stall is visible.
EYES='(lt(hypot(X-135,Y-95),10)+lt(hypot(X-185,Y-95),10))*gt(mod(T,1),0.12)'
MOUTH='lt(abs(X-160),30)*lt(abs(Y-155),3+8*abs(sin(T*6)))'
DISC='lt(hypot(X-160,Y-120),90)'
# Chroma planes are half size: their geq sees X, Y scaled by SW, SH.
CDISC='lt(hypot(X/SW-160,Y/SH-120),90)'
CMOUTH='lt(abs(X/SW-160),30)*lt(abs(Y/SH-155),3+8*abs(sin(T*6)))'
FACE="color=c=0x2b3a55:s=320x240:r=15:d=2,format=yuv420p,\
geq=lum='if($DISC,if($EYES,20,if($MOUTH,50,170)),60)':cb='if($CDISC,110,150)':cr='if($CDISC,if($CMOUTH,170,150),120)',\
drawtext=text='%{n}':x=8:y=8:fontsize=20:fontcolor=white"
if ! "${FF[@]}" -f lavfi -i "$FACE" -c:v libvpx -b:v 120k -g 15 -keyint_min 15 -auto-alt-ref 0 -lag-in-frames 0 \
    -deadline good -cpu-used 4 -f ivf "$OUT/avatar-face.ivf"; then
  # drawtext needs a font; fall back to the face without the counter.
  "${FF[@]}" -f lavfi -i "${FACE%,drawtext*}" -c:v libvpx -b:v 120k -g 15 -keyint_min 15 -auto-alt-ref 0 -lag-in-frames 0 \
    -deadline good -cpu-used 4 -f ivf "$OUT/avatar-face.ivf"
fi

"${FF[@]}" -f lavfi -i "sine=frequency=220:sample_rate=48000:duration=1,volume=0.6,tremolo=f=3:d=0.7" \
  -ac 1 -c:a libopus -b:a 32k -frame_duration 20 -application audio "$OUT/speech-tone.ogg"
"${FF[@]}" -f lavfi -i "anullsrc=r=48000:cl=mono" -t 0.2 -ac 1 -c:a libopus -b:a 16k -frame_duration 20 "$OUT/silence.ogg"
ls -l "$OUT"
