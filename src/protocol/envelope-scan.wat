;; The fast path's byte work (src/protocol/envelope-scan.ts), in WebAssembly with SIMD: validates one line
;; as a single strict JSON object and records where the members of its first two levels are.
;; Compiled by `npm run build:wasm` into envelope-wasm.ts; test/unit/envelope-wasm.test.ts checks they match.
;;
;; Memory (2 pages): the line at [0, 65536); the tape at 65536; the container stack at 67584.
;; Tape entry m (eight i32, 32 bytes at 65536 + 32 m), for each member at depth 1 (the message) or 2
;; (inside the object value of one of its members): parent member index (-1 at depth 1), key start (its
;; quote), key end (after the closing quote), value start, value end, the key's first 8 bytes as two
;; little-endian words (zero past its end), 1 when the key has an escape.
(module
  (memory (export "mem") 2)
  ;; set by $string when the string it scanned has a backslash escape
  (global $escaped (mut i32) (i32.const 0))
  ;; the OR of the string bytes $string has looked at, and whether the byte loop saw one >= 0x80: a line
  ;; whose strings are ASCII is all ASCII (anything else outside a string is not JSON)
  (global $high (mut v128) (v128.const i64x2 0 0))
  (global $highByte (mut i32) (i32.const 0))

  ;; the first index >= i that is not a space or a tab (JSON whitespace but CR and LF: those lines go the
  ;; general way), or n
  (func $ws (param $i i32) (param $n i32) (result i32)
    (local $c i32)
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $c (i32.load8_u (local.get $i)))
      (br_if $done (i32.and (i32.ne (local.get $c) (i32.const 32)) (i32.ne (local.get $c) (i32.const 9))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l)))
    (local.get $i))

  (func $isHex (param $h i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $h) (i32.const 48)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $h) (i32.const 32)) (i32.const 97)) (i32.const 6))))

  ;; after a backslash: " \ / b f n r t
  (func $isEscape (param $e i32) (result i32)
    (i32.or (i32.or (i32.or (i32.eq (local.get $e) (i32.const 34)) (i32.eq (local.get $e) (i32.const 92)))
                    (i32.or (i32.eq (local.get $e) (i32.const 47)) (i32.eq (local.get $e) (i32.const 98))))
            (i32.or (i32.or (i32.eq (local.get $e) (i32.const 102)) (i32.eq (local.get $e) (i32.const 110)))
                    (i32.or (i32.eq (local.get $e) (i32.const 114)) (i32.eq (local.get $e) (i32.const 116))))))

  ;; at an opening quote: the index after the closing quote of a valid string, or -1
  (func $string (param $i i32) (param $n i32) (result i32)
    ;; $h: the string's bytes or-ed together (kept in a register; $high, a global, lives in memory)
    (local $c i32) (local $k i32) (local $v v128) (local $w v128) (local $h v128)
    (global.set $escaped (i32.const 0))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (loop $scan
      ;; find the next byte < 0x20, '"' or '\', 32 or 16 bytes at a time (where: the mask's lowest set bit)
      (if (i32.le_u (i32.add (local.get $i) (i32.const 32)) (local.get $n))
        (then
          (local.set $v (v128.load align=1 (local.get $i)))
          (local.set $w (v128.load offset=16 align=1 (local.get $i)))
          (local.set $h (v128.or (local.get $h) (v128.or (local.get $v) (local.get $w))))
          (local.set $v (v128.or (v128.or
              (i8x16.lt_u (local.get $v) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))
              (i8x16.eq (local.get $v) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34)))
              (i8x16.eq (local.get $v) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92))))
          (local.set $w (v128.or (v128.or
              (i8x16.lt_u (local.get $w) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))
              (i8x16.eq (local.get $w) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34)))
              (i8x16.eq (local.get $w) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92))))
          (if (i32.eqz (v128.any_true (v128.or (local.get $v) (local.get $w)))) (then
            (local.set $i (i32.add (local.get $i) (i32.const 32)))
            (br $scan)))
          (local.set $i (i32.add (local.get $i) (i32.ctz (i32.or
            (i8x16.bitmask (local.get $v))
            (i32.shl (i8x16.bitmask (local.get $w)) (i32.const 16)))))))
        (else (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $n))
          (then
            (local.set $v (v128.load align=1 (local.get $i)))
            (local.set $h (v128.or (local.get $h) (local.get $v)))
            (local.set $v (v128.or (v128.or
              (i8x16.lt_u (local.get $v) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32))
              (i8x16.eq (local.get $v) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34)))
              (i8x16.eq (local.get $v) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92))))
            (if (i32.eqz (v128.any_true (local.get $v))) (then
              (local.set $i (i32.add (local.get $i) (i32.const 16)))
              (br $scan)))
            (local.set $i (i32.add (local.get $i) (i32.ctz (i8x16.bitmask (local.get $v))))))
          (else
            ;; fewer than 16 bytes left: one at a time
            (block $found (loop $bytes
              (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
              (local.set $c (i32.load8_u (local.get $i)))
              (if (i32.ge_u (local.get $c) (i32.const 128)) (then (global.set $highByte (i32.const 1))))
              (br_if $found (i32.lt_u (local.get $c) (i32.const 32)))
              (br_if $found (i32.eq (local.get $c) (i32.const 34)))
              (br_if $found (i32.eq (local.get $c) (i32.const 92)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $bytes)))))))
      (local.set $c (i32.load8_u (local.get $i)))
      (if (i32.eq (local.get $c) (i32.const 34)) (then
        (global.set $high (v128.or (global.get $high) (local.get $h)))
        (return (i32.add (local.get $i) (i32.const 1)))))
      (if (i32.lt_u (local.get $c) (i32.const 32)) (then (return (i32.const -1))))
      ;; a backslash
      (global.set $escaped (i32.const 1))
      (if (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $n)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (i32.add (local.get $i) (i32.const 1))))
      (if (i32.eq (local.get $c) (i32.const 117))
        (then
          ;; \uXXXX
          (if (i32.ge_u (i32.add (local.get $i) (i32.const 5)) (local.get $n)) (then (return (i32.const -1))))
          (local.set $k (i32.add (local.get $i) (i32.const 2)))
          (loop $hex
            (if (i32.eqz (call $isHex (i32.load8_u (local.get $k)))) (then (return (i32.const -1))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br_if $hex (i32.lt_u (local.get $k) (i32.add (local.get $i) (i32.const 6)))))
          (local.set $i (i32.add (local.get $i) (i32.const 6))))
        (else
          (if (i32.eqz (call $isEscape (local.get $c))) (then (return (i32.const -1))))
          (local.set $i (i32.add (local.get $i) (i32.const 2)))))
      (br $scan))
    (unreachable))

  (func $digits (param $i i32) (param $n i32) (result i32)
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (br_if $done (i32.ge_u (i32.sub (i32.load8_u (local.get $i)) (i32.const 48)) (i32.const 10)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $l)))
    (local.get $i))

  ;; at a number's first byte (i < n): the index after a valid JSON number (strict grammar), or -1
  (func $number (param $i i32) (param $n i32) (result i32)
    (local $c i32) (local $s i32)
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 45)) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
    (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then (local.set $i (i32.add (local.get $i) (i32.const 1))))
      (else
        (if (i32.gt_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 8)) (then (return (i32.const -1))))
        (local.set $i (call $digits (i32.add (local.get $i) (i32.const 1)) (local.get $n)))))
    ;; fraction
    (if (i32.lt_u (local.get $i) (local.get $n)) (then
      (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 46)) (then
        (local.set $s (i32.add (local.get $i) (i32.const 1)))
        (local.set $i (call $digits (local.get $s) (local.get $n)))
        (if (i32.eq (local.get $i) (local.get $s)) (then (return (i32.const -1))))))))
    ;; exponent: e or E, an optional sign, digits
    (if (i32.lt_u (local.get $i) (local.get $n)) (then
      (if (i32.eq (i32.or (i32.load8_u (local.get $i)) (i32.const 32)) (i32.const 101)) (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.lt_u (local.get $i) (local.get $n)) (then
          (local.set $c (i32.load8_u (local.get $i)))
          (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
            (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
        (local.set $s (local.get $i))
        (local.set $i (call $digits (local.get $s) (local.get $n)))
        (if (i32.eq (local.get $i) (local.get $s)) (then (return (i32.const -1))))))))
    (local.get $i))

  ;; true, false or null at i (its first byte is c): the index after it, or -1
  (func $word (param $i i32) (param $n i32) (param $c i32) (result i32)
    (if (i32.eq (local.get $c) (i32.const 116)) (then
      (if (i32.le_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)) (then
        (if (i32.eq (i32.load align=1 (local.get $i)) (i32.const 0x65757274)) (then (return (i32.add (local.get $i) (i32.const 4)))))))
      (return (i32.const -1))))
    (if (i32.eq (local.get $c) (i32.const 110)) (then
      (if (i32.le_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)) (then
        (if (i32.eq (i32.load align=1 (local.get $i)) (i32.const 0x6c6c756e)) (then (return (i32.add (local.get $i) (i32.const 4)))))))
      (return (i32.const -1))))
    (if (i32.eq (local.get $c) (i32.const 102)) (then
      (if (i32.le_u (i32.add (local.get $i) (i32.const 5)) (local.get $n)) (then
        (if (i32.eq (i32.load align=1 (i32.add (local.get $i) (i32.const 1))) (i32.const 0x65736c61)) (then (return (i32.add (local.get $i) (i32.const 5)))))))
      (return (i32.const -1))))
    (i32.const -1))

  ;; Validates [0, n) as one JSON object (a loop over three states with an explicit stack, at most 128
  ;; deep) and fills the tape. Returns the number of tape entries, or -1 when the line is not one strict
  ;; JSON object, nests deeper, or has more than 64 members on its first two levels. Bit 16 of the count
  ;; is set when the line may hold bytes >= 0x80. Whitespace is skipped inline (messages rarely hold
  ;; any, so the byte is looked at and $ws called only for a space or a tab: a call per token cost ~15%).
  (func (export "validate") (param $n i32) (result i32)
    (local $i i32) (local $depth i32) (local $state i32) (local $m i32) (local $c i32) (local $obj i32)
    (local $ks i32) (local $ke i32) (local $t i32) (local $open1 i32) (local $open2 i32) (local $w i32) (local $code i64) (local $len i32)
    (global.set $high (v128.const i64x2 0 0))
    (global.set $highByte (i32.const 0))
    (local.set $i (i32.const 0))
    (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
      (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
        (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
    (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 123)) (then (return (i32.const -1))))
    (local.set $open1 (i32.const -1))
    (local.set $open2 (i32.const -1))
    (loop $main
      ;; state 0: a value starts
      (if (i32.eqz (local.get $state)) (then
        (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
          (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
            (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
        (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $i)))
        ;; { or [ ([ is 0x5b, { is 0x7b)
        (if (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 123)) (then
          (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
          (if (i32.gt_u (local.get $depth) (i32.const 128)) (then (return (i32.const -1))))
          (local.set $obj (i32.eq (local.get $c) (i32.const 123)))
          (i32.store8 (i32.add (i32.const 67584) (local.get $depth)) (local.get $obj))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
            (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
              (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
          ;; empty: } is { + 2, ] is [ + 2
          (if (i32.and (i32.lt_u (local.get $i) (local.get $n))
                       (i32.eq (i32.load8_u (local.get $i)) (i32.add (local.get $c) (i32.const 2))))
            (then
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
              (local.set $state (i32.const 1)))
            (else (if (local.get $obj) (then (local.set $state (i32.const 2))))))
          (br $main)))
        (if (i32.eq (local.get $c) (i32.const 34))
          (then (local.set $i (call $string (local.get $i) (local.get $n))))
          (else (if (i32.or (i32.eq (local.get $c) (i32.const 45)) (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))
            (then (local.set $i (call $number (local.get $i) (local.get $n))))
            (else (local.set $i (call $word (local.get $i) (local.get $n) (local.get $c)))))))
        (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $state (i32.const 1))
        (br $main)))
      ;; state 1: a value ended at i; on the first two levels its member ends here
      (if (i32.eq (local.get $state) (i32.const 1)) (then
        (if (i32.eq (local.get $depth) (i32.const 1)) (then
          (if (i32.ge_s (local.get $open1) (i32.const 0)) (then
            (i32.store (i32.add (i32.const 65552) (i32.shl (local.get $open1) (i32.const 5))) (local.get $i))
            (local.set $open1 (i32.const -1))))))
        (if (i32.eq (local.get $depth) (i32.const 2)) (then
          (if (i32.ge_s (local.get $open2) (i32.const 0)) (then
            (i32.store (i32.add (i32.const 65552) (i32.shl (local.get $open2) (i32.const 5))) (local.get $i))
            (local.set $open2 (i32.const -1))))))
        (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
          (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
            (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
        ;; the message itself ended: nothing may follow
        (if (i32.eqz (local.get $depth)) (then
          (if (i32.ne (local.get $i) (local.get $n)) (then (return (i32.const -1))))
          ;; bit 16: the line may hold bytes >= 0x80 (the caller then checks it is UTF-8)
          (return (i32.or (local.get $m) (i32.shl
            (i32.or (global.get $highByte) (i32.ne (i8x16.bitmask (global.get $high)) (i32.const 0)))
            (i32.const 16))))))
        (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $i)))
        (local.set $obj (i32.load8_u (i32.add (i32.const 67584) (local.get $depth))))
        (if (i32.eq (local.get $c) (i32.const 44)) (then
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (local.set $state (select (i32.const 2) (i32.const 0) (local.get $obj)))
          (br $main)))
        (if (i32.eq (local.get $c) (select (i32.const 125) (i32.const 93) (local.get $obj))) (then
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
          (br $main)))
        (return (i32.const -1))))
      ;; state 2: a member's key, its colon, and the start of its value
      (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
          (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
      (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 34)) (then (return (i32.const -1))))
      (local.set $ks (local.get $i))
      (local.set $i (call $string (local.get $i) (local.get $n)))
      (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $ke (local.get $i))
      (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
          (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
      (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const -1))))
      (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 58)) (then (return (i32.const -1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (if (i32.lt_u (local.get $i) (local.get $n)) (then (local.set $w (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $w) (i32.const 32)) (i32.eq (local.get $w) (i32.const 9)))
          (then (local.set $i (call $ws (local.get $i) (local.get $n)))))))
      (if (i32.le_u (local.get $depth) (i32.const 2)) (then
        (if (i32.ge_u (local.get $m) (i32.const 64)) (then (return (i32.const -1))))
        (local.set $t (i32.add (i32.const 65536) (i32.shl (local.get $m) (i32.const 5))))
        (i32.store (local.get $t) (select (i32.const -1) (local.get $open1) (i32.eq (local.get $depth) (i32.const 1))))
        (i32.store offset=4 (local.get $t) (local.get $ks))
        (i32.store offset=8 (local.get $t) (local.get $ke))
        (i32.store offset=12 (local.get $t) (local.get $i))
        (i32.store offset=16 (local.get $t) (i32.const -1))
        ;; the key's first 8 bytes (zero past its end) as two words, and whether it has an escape
        (local.set $code (i64.load align=1 (i32.add (local.get $ks) (i32.const 1))))
        (local.set $len (i32.sub (i32.sub (local.get $ke) (local.get $ks)) (i32.const 2)))
        (if (i32.lt_u (local.get $len) (i32.const 8)) (then
          (local.set $code (i64.and (local.get $code)
            (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $len) (i32.const 3)))) (i64.const 1))))))
        (i64.store offset=20 align=4 (local.get $t) (local.get $code))
        (i32.store offset=28 (local.get $t) (global.get $escaped))
        (if (i32.eq (local.get $depth) (i32.const 1))
          (then (local.set $open1 (local.get $m)))
          (else (local.set $open2 (local.get $m))))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))))
      (local.set $state (i32.const 0))
      (br $main))
    (unreachable))
)
