// One-node ONNX models encoded as protobuf bytes (onnx/onnx.proto3's ModelProto, only the fields a one-node graph
// needs): inputs of a fixed elem type and no shape (rank unknown), so that one model serves every shape.
// Field numbers and enum values are those of onnx.proto (ModelProto.ir_version = 1, graph = 7, opset_import = 8 ...).

// TensorProto.DataType by broadcheck's dtype name.
export const ELEM_TYPE = {
  float32: 1, uint8: 2, int8: 3, int16: 5, int32: 6, int64: 7, bool: 9, float16: 10, float64: 11,
};

const IR_VERSION = 8;  // ONNX 1.10+, the IR of opset 13 ... 18
export const OPSET = 18;  // ReduceMax/Min/Mean/Prod take axes as an input from opset 18 on (ReduceSum from 13)

class Writer {
  constructor() { this.bytes = []; }
  varint(v) {
    let n = BigInt.asUintN(64, BigInt(v));
    while (n >= 0x80n) { this.bytes.push(Number(n & 0x7fn) | 0x80); n >>= 7n; }
    this.bytes.push(Number(n));
    return this;
  }
  key(field, wire) { return this.varint((field << 3) | wire); }
  int(field, v) { return this.key(field, 0).varint(v); }
  bytesField(field, data) { this.key(field, 2).varint(data.length); for (const b of data) this.bytes.push(b); return this; }
  string(field, s) { return this.bytesField(field, Buffer.from(s, 'utf8')); }
  message(field, w) { return this.bytesField(field, w.bytes); }
  float(field, x) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(x);
    this.key(field, 5);
    for (const c of b) this.bytes.push(c);
    return this;
  }
}

// A ValueInfoProto: a tensor of elem type `type`, its shape left out (output: no type, ONNX Runtime infers it).
function valueInfo(name, type) {
  const w = new Writer().string(1, name);
  if (type === undefined) return w;
  return w.message(2, new Writer().message(1, new Writer().int(1, type)));
}

// An AttributeProto from a JS value: {f: number} is FLOAT, {i: integer} INT, {s: text} STRING, {ints: [...]} INTS.
function attribute(name, value) {
  const w = new Writer().string(1, name);
  if ('f' in value) return w.float(2, value.f).int(20, 1);
  if ('i' in value) return w.int(3, value.i).int(20, 2);
  if ('s' in value) return w.string(4, value.s).int(20, 3);
  for (const v of value.ints) w.int(8, v);
  return w.int(20, 7);
}

// A NodeProto: nodes = [{op, inputs: [names], output: name, attributes: {name: value}}].
function node(n) {
  const w = new Writer();
  for (const i of n.inputs) w.string(1, i);
  w.string(2, n.output).string(4, n.op);
  for (const [name, value] of Object.entries(n.attributes || {})) w.message(5, attribute(name, value));
  return w;
}

// The model's bytes: `inputs` = [{name, type (ELEM_TYPE)}], `nodes` in order, `output` the last node's output.
export function encodeModel({ inputs, nodes, output }) {
  const graph = new Writer();
  for (const n of nodes) graph.message(1, node(n));
  graph.string(2, 'broadcheck');
  for (const i of inputs) graph.message(11, valueInfo(i.name, i.type));
  graph.message(12, valueInfo(output));
  const opset = new Writer().string(1, '').int(2, OPSET);
  const model = new Writer().int(1, IR_VERSION).string(2, 'broadcheck').message(7, graph).message(8, opset);
  return Uint8Array.from(model.bytes);
}
