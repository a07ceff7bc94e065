// inflate.js: a raw DEFLATE decoder (RFC 1951), for the page's data, which `rewind html`
// compresses (Deflate.swift). Synchronous, so that the page draws its first screen before
// its `load` event; table-driven, so that 25 MB inflate in a fraction of a second.
(() => {
  const LENGTH_BASE = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ];
  const LENGTH_EXTRA = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ];
  const DISTANCE_BASE = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ];
  const DISTANCE_EXTRA = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ];
  const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  // A lookup table for a canonical Huffman code: indexed by the next `bits` input bits
  // (least significant first), each entry is symbol << 4 | code length (0: no code).
  function table(lengths) {
    let bits = 0;
    const count = new Uint16Array(16);
    for (const length of lengths) {
      if (length > 0) {
        count[length]++;
        if (length > bits) bits = length;
      }
    }
    const next = new Uint16Array(16);
    let code = 0;
    for (let length = 1; length < 16; length++) {
      code = (code + (length > 1 ? count[length - 1] : 0)) << 1;
      next[length] = code;
    }
    const size = 1 << bits;
    const entries = new Uint32Array(size);
    for (let symbol = 0; symbol < lengths.length; symbol++) {
      const length = lengths[symbol];
      if (length === 0) continue;
      let value = next[length]++;
      let reversed = 0;
      for (let bit = 0; bit < length; bit++) {
        reversed = (reversed << 1) | (value & 1);
        value >>>= 1;
      }
      for (let index = reversed; index < size; index += 1 << length) {
        entries[index] = (symbol << 4) | length;
      }
    }
    return { entries, bits };
  }

  let fixed = null;
  function fixedTables() {
    if (fixed) return fixed;
    const lengths = new Uint8Array(288);
    lengths.fill(8, 0, 144);
    lengths.fill(9, 144, 256);
    lengths.fill(7, 256, 280);
    lengths.fill(8, 280, 288);
    fixed = { literal: table(lengths), distance: table(new Uint8Array(30).fill(5)) };
    return fixed;
  }

  /**
   * Inflates raw DEFLATE `input` (a Uint8Array) that holds exactly `size` bytes.
   * Throws an Error on malformed input.
   *
   * The bit reader's state lives in local variables, and the loop of literals and
   * matches decodes inline, refilling the bit buffer to at least 15 bits before each code.
   * Bytes read past the end of the input count as zeros; running out is detected by the
   * position.
   */
  RewindPage.inflate = (input, size) => {
    const output = new Uint8Array(size);
    const end = input.length;
    let out = 0;
    let position = 0;
    let buffer = 0;
    let count = 0;

    const refill = (bits) => {
      while (count < bits) {
        if (position >= end + 4) throw new Error("the data ends too early");
        buffer |= (position < end ? input[position] : 0) << count;
        position++;
        count += 8;
      }
    };
    const take = (bits) => {
      if (bits === 0) return 0;
      refill(bits);
      const value = buffer & ((1 << bits) - 1);
      buffer >>>= bits;
      count -= bits;
      return value;
    };
    const decode = (code) => {
      refill(code.bits);
      const entry = code.entries[buffer & ((1 << code.bits) - 1)];
      const length = entry & 15;
      if (length === 0) throw new Error("the data holds an invalid Huffman code");
      buffer >>>= length;
      count -= length;
      return entry >>> 4;
    };

    let final = 0;
    while (!final) {
      final = take(1);
      const type = take(2);
      if (type === 0) {
        // To the next byte: whole bytes read ahead go back to the input.
        position -= count >> 3;
        buffer = 0;
        count = 0;
        const length = input[position] | (input[position + 1] << 8);
        position += 4;
        if (position + length > end || out + length > size) {
          throw new Error("a stored block runs past the data");
        }
        output.set(input.subarray(position, position + length), out);
        position += length;
        out += length;
        continue;
      }
      let literal;
      let distance;
      if (type === 1) {
        ({ literal, distance } = fixedTables());
      } else if (type === 2) {
        const literalCount = take(5) + 257;
        const distanceCount = take(5) + 1;
        const codeLengthCount = take(4) + 4;
        const codeLengths = new Uint8Array(19);
        for (let index = 0; index < codeLengthCount; index++) {
          codeLengths[CODE_LENGTH_ORDER[index]] = take(3);
        }
        const lengthCode = table(codeLengths);
        const lengths = new Uint8Array(literalCount + distanceCount);
        let index = 0;
        while (index < lengths.length) {
          const symbol = decode(lengthCode);
          if (symbol < 16) {
            lengths[index++] = symbol;
          } else {
            let repeat;
            let value = 0;
            if (symbol === 16) {
              if (index === 0) throw new Error("a repeat with nothing to repeat");
              value = lengths[index - 1];
              repeat = 3 + take(2);
            } else if (symbol === 17) {
              repeat = 3 + take(3);
            } else {
              repeat = 11 + take(7);
            }
            if (index + repeat > lengths.length) throw new Error("code lengths overflow");
            lengths.fill(value, index, index + repeat);
            index += repeat;
          }
        }
        literal = table(lengths.subarray(0, literalCount));
        distance = table(lengths.subarray(literalCount));
      } else {
        throw new Error("the data holds a block of the reserved type 3");
      }

      // The hot loop: literals and matches until the end of the block.
      const literalEntries = literal.entries;
      const literalMask = (1 << literal.bits) - 1;
      for (;;) {
        while (count < 15) {
          buffer |= (position < end ? input[position] : 0) << count;
          position++;
          count += 8;
        }
        const entry = literalEntries[buffer & literalMask];
        const bits = entry & 15;
        if (bits === 0 || position > end + 4) throw new Error("the data holds an invalid Huffman code");
        buffer >>>= bits;
        count -= bits;
        const symbol = entry >>> 4;
        if (symbol < 256) {
          if (out >= size) throw new Error("the data is longer than announced");
          output[out++] = symbol;
          continue;
        }
        if (symbol === 256) break;
        const code = symbol - 257;
        if (code >= 29) throw new Error("an invalid length code");
        const length = LENGTH_BASE[code] + take(LENGTH_EXTRA[code]);
        const distanceCode = decode(distance);
        if (distanceCode >= 30) throw new Error("an invalid distance code");
        const back = DISTANCE_BASE[distanceCode] + take(DISTANCE_EXTRA[distanceCode]);
        if (back > out) throw new Error("a match reaches before the start");
        if (out + length > size) throw new Error("the data is longer than announced");
        let from = out - back;
        if (back >= length && length > 32) {
          output.copyWithin(out, from, from + length);
          out += length;
        } else {
          for (let step = 0; step < length; step++) output[out++] = output[from++];
        }
      }
    }
    if (out !== size) throw new Error(`the data holds ${out} bytes, not ${size}`);
    return output;
  };
})();
