/* input_samples: .npy data as samples of a graph input (input_samples.h). */
#include "input_samples.h"

#include <stdio.h>

const char *input_shape_text(const int64_t *dims, int n, char *buf, size_t size) {
  size_t at = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < n && at < size; i++) {
    if (dims[i] < 0) at += (size_t)snprintf(buf + at, size - at, "%s?", i ? "," : "");
    else at += (size_t)snprintf(buf + at, size - at, "%s%lld", i ? "," : "", (long long)dims[i]);
  }
  if (at < size) snprintf(buf + at, size - at, "]");
  return buf;
}

int input_dtype_check(const ir_value *in, const npy_array *x, const char *path, diag *d) {
  if ((ir_dtype)x->dtype == in->dtype) return 0;
  /* numpy's float64 is the default dtype of np.array/np.random: say how to
   * convert when the model wants float32 */
  return diag_set(d, "%s: holds %s, input '%s' is %s%s", path, npy_dtype_name(x->dtype), in->name,
                  ir_dtype_name(in->dtype),
                  in->dtype == IR_F32 ? " (save it as float32: x.astype(numpy.float32))" : "");
}

int64_t input_samples(const ir_value *in, const npy_array *x, const char *path, diag *d) {
  if (input_dtype_check(in, x, path, d)) return -1;
  int same = x->ndim == in->rank && in->rank >= 1;
  for (int i = 1; same && i < in->rank; i++) same = x->shape[i] == in->dims[i];
  if (same && in->dims[0] >= 1 && x->shape[0] > 0 && x->shape[0] % in->dims[0] == 0)
    return x->shape[0] / in->dims[0];
  char has[160], want[160], stack[160];
  int rank = in->rank < IR_MAX_RANK ? in->rank : IR_MAX_RANK;
  int64_t sd[IR_MAX_RANK];
  for (int i = 0; i < rank; i++) sd[i] = i ? in->dims[i] : -1;
  input_shape_text(sd, rank, stack, sizeof stack);
  if (stack[1] == '?') stack[1] = 'N';
  diag_set(d, "%s: shape %s does not match input '%s' %s (samples stack along dimension 0: %s)", path,
           input_shape_text(x->shape, x->ndim, has, sizeof has), in->name,
           input_shape_text(in->dims, in->rank, want, sizeof want), stack);
  return -1;
}
