import type { TrainedMember } from './members.js';

/**
 * 8-bit weights with one power-of-two scale per row. A power of two makes the round trip exact:
 * quantising already-quantised weights gives back the same bytes, so a saved model predicts exactly as
 * the model that was trained.
 */
export interface QuantisedRows {
  readonly width: number;
  readonly values: Int8Array;
  readonly exponents: Int8Array;
}

const LEVELS = 127;

export function quantiseRows(weights: Float32Array, width: number): QuantisedRows {
  const rows = width === 0 ? 0 : weights.length / width;
  const values = new Int8Array(weights.length);
  const exponents = new Int8Array(rows);
  for (let row = 0; row < rows; row += 1) {
    const start = row * width;
    let max = 0;
    for (let at = start; at < start + width; at += 1) max = Math.max(max, Math.abs(weights[at] as number));
    const exponent = max === 0 ? 0 : rowExponent(max);
    exponents[row] = exponent;
    const scale = 2 ** exponent;
    for (let at = start; at < start + width; at += 1)
      values[at] = Math.max(-LEVELS, Math.min(LEVELS, Math.round((weights[at] as number) / scale)));
  }
  return { width, values, exponents };
}

/** The smallest power of two e with max / 2^e <= 127, kept within Int8's range. */
function rowExponent(max: number): number {
  let exponent = Math.ceil(Math.log2(max / LEVELS));
  while (max / 2 ** exponent > LEVELS) exponent += 1;
  while (exponent > -128 && max / 2 ** (exponent - 1) <= LEVELS) exponent -= 1;
  return Math.max(-128, Math.min(127, exponent));
}

export function dequantiseRows(rows: QuantisedRows): Float32Array {
  const weights = new Float32Array(rows.values.length);
  for (let row = 0; row < rows.exponents.length; row += 1) {
    const scale = 2 ** (rows.exponents[row] as number);
    const start = row * rows.width;
    for (let at = start; at < start + rows.width; at += 1) weights[at] = (rows.values[at] as number) * scale;
  }
  return weights;
}

function roundTrip(weights: Float32Array, width: number): Float32Array {
  return dequantiseRows(quantiseRows(weights, width));
}

/** The member with its weight matrices rounded to their 8-bit values (biases stay 32-bit). */
export function quantiseMember(member: TrainedMember): TrainedMember {
  switch (member.kind) {
    case 'linear': {
      const { model } = member;
      return { ...member, model: { ...model, weights: roundTrip(model.weights, model.classes) } };
    }
    case 'mlp': {
      const { model } = member;
      return {
        ...member,
        model: {
          ...model,
          inputWeights: roundTrip(model.inputWeights, model.hidden),
          outputWeights: roundTrip(model.outputWeights, model.classes),
        },
      };
    }
  }
}
