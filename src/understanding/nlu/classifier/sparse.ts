/** Sparse vectors and row-compressed matrices over Float32Array, shared by the featuriser and models. */

export interface SparseVector {
  readonly indices: Int32Array;
  readonly values: Float32Array;
}

/** Rows of sparse vectors stored back to back (CSR). */
export interface SparseMatrix {
  readonly rows: number;
  readonly offsets: Int32Array;
  readonly indices: Int32Array;
  readonly values: Float32Array;
}

export function toMatrix(vectors: readonly SparseVector[]): SparseMatrix {
  const total = vectors.reduce((sum, vector) => sum + vector.indices.length, 0);
  const offsets = new Int32Array(vectors.length + 1);
  const indices = new Int32Array(total);
  const values = new Float32Array(total);
  vectors.forEach((vector, row) => {
    const start = offsets[row] ?? 0;
    indices.set(vector.indices, start);
    values.set(vector.values, start);
    offsets[row + 1] = start + vector.indices.length;
  });
  return { rows: vectors.length, offsets, indices, values };
}

export function rowOf(matrix: SparseMatrix, row: number): SparseVector {
  const start = matrix.offsets[row] ?? 0;
  const end = matrix.offsets[row + 1] ?? start;
  return { indices: matrix.indices.subarray(start, end), values: matrix.values.subarray(start, end) };
}

/** scores[c] += sum over nonzeros of x_f * W[f, c], with W stored feature-major (row f holds all classes). */
export function addProduct(
  weights: Float32Array,
  classes: number,
  indices: Int32Array,
  values: Float32Array,
  scores: Float64Array,
): void {
  for (let nz = 0; nz < indices.length; nz += 1) {
    const value = values[nz] as number;
    const base = (indices[nz] as number) * classes;
    for (let c = 0; c < classes; c += 1)
      scores[c] = (scores[c] as number) + value * (weights[base + c] as number);
  }
}

/** The given rows of a matrix, in the given order. */
export function selectRows(matrix: SparseMatrix, rows: readonly number[]): SparseMatrix {
  return toMatrix(rows.map((row) => rowOf(matrix, row)));
}
