/**
 * The one audio check of say-audio: the file must be MP3 at 44.1 kHz (spec limits). Skips an ID3v2 tag,
 * finds the first MPEG audio frame header and reads its version, layer and sample-rate index.
 */
export function isMp3At44100(bytes: Uint8Array): boolean {
  let offset = 0;
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    // ID3v2: 10-byte header, size as four 7-bit "syncsafe" bytes.
    const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
    offset = 10 + size;
  }
  const limit = Math.min(bytes.length - 3, offset + 4096);
  for (let i = offset; i < limit; i++) {
    if (bytes[i] !== 0xff || (bytes[i + 1]! & 0xe0) !== 0xe0) continue;
    const version = (bytes[i + 1]! >> 3) & 0x03; // 3 = MPEG-1
    const layer = (bytes[i + 1]! >> 1) & 0x03; // 1 = Layer III
    const sampleRateIndex = (bytes[i + 2]! >> 2) & 0x03; // 0 = 44100 Hz for MPEG-1
    return version === 3 && layer === 1 && sampleRateIndex === 0;
  }
  return false;
}
