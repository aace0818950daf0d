;; Record heads for the log (loaded by src/log/head-wasm.ts), in WebAssembly: `{"v":1,"time":…,"session":"…",
;; "seq":…` and the rest of a head from a template (head-templates.ts) whose variable values are numbers.
;; The JavaScript side matches the record to a template and checks every number; this writes the bytes.
;; Compiled by `npm run build:wasm` into head-writer-wasm.ts; test/unit/envelope-wasm.test.ts checks they match.
;;
;; Memory (2 pages):
;;   0      `{"v":1,"time":` (14 bytes)
;;   512    "00" … "99" (200 bytes)
;;   1024   the session tail `,"session":"…","seq":` (up to 1024 bytes)
;;   2048   f64 values: [0] the time, [1 + r] the template's variable value r; each a whole number of
;;          thousandths (value × 1000, exact), written as JSON.stringify writes the value
;;   4096   runs of template slot t (0 … 7) at 4096 + 512 t: per run r (0 … 32) its offset and length (i32)
;;   8192   the runs' bytes, 4096 per slot
;;   65536  the head written last
(module
  (memory (export "mem") 2)
  (data (i32.const 0) "{\22v\22:1,\22time\22:")
  (data (i32.const 512) "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899")

  ;; 0 <= n < 2^32 in decimal at p; returns the end
  (func $uint (param $p i32) (param $n i32) (result i32)
    (local $len i32) (local $t i32) (local $i i32) (local $q i32)
    (local.set $len (i32.const 1))
    (local.set $t (i32.const 10))
    (block $counted (loop $count
      (br_if $counted (i32.lt_u (local.get $n) (local.get $t)))
      (local.set $len (i32.add (local.get $len) (i32.const 1)))
      (br_if $counted (i32.eq (local.get $len) (i32.const 10)))
      (local.set $t (i32.mul (local.get $t) (i32.const 10)))
      (br $count)))
    (local.set $i (i32.add (local.get $p) (local.get $len)))
    (block $small (loop $pairs
      (br_if $small (i32.lt_u (local.get $n) (i32.const 100)))
      (local.set $q (i32.div_u (local.get $n) (i32.const 100)))
      (local.set $i (i32.sub (local.get $i) (i32.const 2)))
      (i32.store16 align=1 (local.get $i)
        (i32.load16_u align=1 (i32.add (i32.const 512)
          (i32.shl (i32.sub (local.get $n) (i32.mul (local.get $q) (i32.const 100))) (i32.const 1)))))
      (local.set $n (local.get $q))
      (br $pairs)))
    (if (i32.ge_u (local.get $n) (i32.const 10))
      (then
        (i32.store16 align=1 (i32.sub (local.get $i) (i32.const 2))
          (i32.load16_u align=1 (i32.add (i32.const 512) (i32.shl (local.get $n) (i32.const 1))))))
      (else (i32.store8 (i32.sub (local.get $i) (i32.const 1)) (i32.add (i32.const 48) (local.get $n)))))
    (i32.add (local.get $p) (local.get $len)))

  ;; 0 <= n < 1,000,000 as exactly six digits at p; returns the end
  (func $six (param $p i32) (param $n i32) (result i32)
    (local $a i32) (local $b i32)
    (local.set $a (i32.div_u (local.get $n) (i32.const 10000)))
    (local.set $n (i32.sub (local.get $n) (i32.mul (local.get $a) (i32.const 10000))))
    (local.set $b (i32.div_u (local.get $n) (i32.const 100)))
    (local.set $n (i32.sub (local.get $n) (i32.mul (local.get $b) (i32.const 100))))
    (i32.store16 align=1 (local.get $p) (i32.load16_u align=1 (i32.add (i32.const 512) (i32.shl (local.get $a) (i32.const 1)))))
    (i32.store16 offset=2 align=1 (local.get $p) (i32.load16_u align=1 (i32.add (i32.const 512) (i32.shl (local.get $b) (i32.const 1)))))
    (i32.store16 offset=4 align=1 (local.get $p) (i32.load16_u align=1 (i32.add (i32.const 512) (i32.shl (local.get $n) (i32.const 1)))))
    (i32.add (local.get $p) (i32.const 6)))

  ;; a value given in thousandths (an exact whole number, |m| < 2^52) as JSON.stringify writes m / 1000:
  ;; a sign, the whole part, then up to three decimals without trailing zeros; returns the end
  (func $millis (param $p i32) (param $m f64) (result i32)
    (local $u i64) (local $whole i64) (local $frac i32) (local $hi i32) (local $d i32)
    ;; -0 is not below 0: written "0", as JSON.stringify writes it
    (if (f64.lt (local.get $m) (f64.const 0))
      (then
        (i32.store8 (local.get $p) (i32.const 45))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $m (f64.neg (local.get $m)))))
    (local.set $u (i64.trunc_f64_u (local.get $m)))
    (local.set $whole (i64.div_u (local.get $u) (i64.const 1000)))
    (local.set $frac (i32.wrap_i64 (i64.sub (local.get $u) (i64.mul (local.get $whole) (i64.const 1000)))))
    (if (i64.lt_u (local.get $whole) (i64.const 1000000))
      (then (local.set $p (call $uint (local.get $p) (i32.wrap_i64 (local.get $whole)))))
      (else
        ;; a record time (~1.8e12 ms): the millions, then six digits
        (local.set $hi (i32.wrap_i64 (i64.div_u (local.get $whole) (i64.const 1000000))))
        (local.set $p (call $uint (local.get $p) (local.get $hi)))
        (local.set $p (call $six (local.get $p)
          (i32.wrap_i64 (i64.sub (local.get $whole) (i64.mul (i64.extend_i32_u (local.get $hi)) (i64.const 1000000))))))))
    (if (i32.eqz (local.get $frac)) (then (return (local.get $p))))
    (i32.store8 (local.get $p) (i32.const 46))
    (local.set $d (i32.div_u (local.get $frac) (i32.const 100)))
    (i32.store8 offset=1 (local.get $p) (i32.add (i32.const 48) (local.get $d)))
    (local.set $frac (i32.sub (local.get $frac) (i32.mul (local.get $d) (i32.const 100))))
    (if (i32.eqz (local.get $frac)) (then (return (i32.add (local.get $p) (i32.const 2)))))
    (local.set $d (i32.div_u (local.get $frac) (i32.const 10)))
    (i32.store8 offset=2 (local.get $p) (i32.add (i32.const 48) (local.get $d)))
    (local.set $frac (i32.sub (local.get $frac) (i32.mul (local.get $d) (i32.const 10))))
    (if (i32.eqz (local.get $frac)) (then (return (i32.add (local.get $p) (i32.const 3)))))
    (i32.store8 offset=3 (local.get $p) (i32.add (i32.const 48) (local.get $frac)))
    (i32.add (local.get $p) (i32.const 4)))

  ;; The head of a record matched to template slot $t with $n variable values: the start, with the
  ;; session tail of $tail bytes and $seq, then run 0, value 0, run 1, … value n-1, run n (which ends with
  ;; `,"msg":`). Written at 65536; returns its length.
  (func (export "head") (param $t i32) (param $n i32) (param $tail i32) (param $seq i32) (result i32)
    (local $p i32) (local $r i32) (local $run i32) (local $len i32)
    (memory.copy (i32.const 65536) (i32.const 0) (i32.const 14))
    (local.set $p (call $millis (i32.const 65550) (f64.load (i32.const 2048))))
    (memory.copy (local.get $p) (i32.const 1024) (local.get $tail))
    (local.set $p (call $uint (i32.add (local.get $p) (local.get $tail)) (local.get $seq)))
    (local.set $run (i32.add (i32.const 4096) (i32.shl (local.get $t) (i32.const 9))))
    (block $done (loop $runs
      (local.set $len (i32.load offset=4 (local.get $run)))
      (memory.copy (local.get $p) (i32.load (local.get $run)) (local.get $len))
      (local.set $p (i32.add (local.get $p) (local.get $len)))
      (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
      (local.set $p (call $millis (local.get $p) (f64.load offset=2056 (i32.shl (local.get $r) (i32.const 3)))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (local.set $run (i32.add (local.get $run) (i32.const 8)))
      (br $runs)))
    (i32.sub (local.get $p) (i32.const 65536)))
)
