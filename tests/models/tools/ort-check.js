// Optional cross-check of MANIFEST references against ONNX Runtime; not part
// of any test (needs node and onnxruntime-node; see tests/models/README.md).
//   node tests/models/tools/ort-check.js tests/models [FILTER]
//   (npm install --prefix /tmp/ort --ignore-scripts onnxruntime-node@1.30.0, then
//    NODE_PATH=/tmp/ort/node_modules node tests/models/tools/ort-check.js tests/models)
const ort = require('onnxruntime-node');
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
function readNpy(p) {
  const b = fs.readFileSync(p);
  const ver = b[6];
  const hlen = ver === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const pre = ver === 1 ? 10 : 12;
  const h = b.slice(pre, pre + hlen).toString();
  const descr = /'descr': '([^']+)'/.exec(h)[1];
  const shape = /'shape': \(([^)]*)\)/.exec(h)[1].split(',').filter(s => s.trim()).map(Number);
  const data = b.slice(pre + hlen);
  const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);
  const map = {'<f4': ['float32', Float32Array], '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array],
               '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array], '<f8': ['float64', Float64Array]};
  const [t, A] = map[descr];
  return new ort.Tensor(t, new A(ab), shape);
}
(async () => {
  const lines = fs.readFileSync(path.join(dir, 'MANIFEST'), 'utf8').split('\n');
  let bad = 0, n = 0;
  for (let line of lines) {
    line = line.replace(/#.*/, '').trim();
    if (!line) continue;
    if (process.argv[3] && !line.includes(process.argv[3])) continue;
    const f = line.split(/\s+/);
    const kv = {};
    for (const x of f.slice(1)) { const i = x.indexOf('='); kv[x.slice(0, i)] = x.slice(i + 1); }
    const ins = kv.inputs ? kv.inputs.split(',') : [];
    const outs = kv.outputs.split(',');
    n++;
    try {
      const s = await ort.InferenceSession.create(path.join(dir, f[0] + '.onnx'));
      const feeds = {};
      ins.forEach((p, i) => feeds[s.inputNames[i]] = readNpy(path.join(dir, p)));
      if (kv.binds) for (const b of kv.binds.split(',')) { const [k, p] = b.split('='); feeds[k] = readNpy(path.join(dir, p)); }
      const r = await s.run(feeds);
      let worst = 0, where = '';
      outs.forEach((p, i) => {
        const want = readNpy(path.join(dir, p));
        const got = r[s.outputNames[i]];
        if (want.dims.join() !== got.dims.join()) { worst = Infinity; where = `shape ${got.dims} vs ${want.dims}`; return; }
        for (let j = 0; j < want.data.length; j++) {
          const a = Number(want.data[j]), g = Number(got.data[j]);
          const e = Math.abs(a - g) / Math.max(1, Math.abs(a));
          if (e > worst) { worst = e; where = `at ${j}: ort ${g} ref ${a}`; }
        }
      });
      const tol = kv.kind === 'quant' ? 0 : 1e-4;
      if (worst > tol) { bad++; console.log(`DIFF ${f[0]} ${worst} ${where}`); }
    } catch (e) { bad++; console.log(`ERR ${f[0]}: ${String(e.message).slice(0, 200)}`); }
  }
  console.log(`${n - bad} agree, ${bad} differ`);
})();
