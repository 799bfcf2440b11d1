# firmware/runtime/rules.mk: the runtime (docs/runtime.md). Included from
# firmware/rules.mk after firmware/npu/npu.mk (whose driver objects it links).
include firmware/runtime/runtime.mk
-include firmware/runtime/fallback.mk
include firmware/runtime/example.mk
include firmware/runtime/link.mk
