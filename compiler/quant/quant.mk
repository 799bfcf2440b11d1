# compiler/quant/quant.mk: Quantisation: calibration, post-training quantisation, QDQ folding, requantisation multipliers, quantised operators.
# Library build/lib/libtessel-quant.a (compiler/rules.mk).

COMPILER_quant_SRCS := compiler/quant/calibrate.c compiler/quant/ptq.c compiler/quant/core_forms.c \
                       compiler/quant/qdq_fold.c compiler/quant/quant.c \
                       compiler/quant/quant_ops.c compiler/quant/requant.c
