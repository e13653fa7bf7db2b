include $(BR2_EXTERNAL_PERFGUIDE_PATH)/perfguide.mk
include $(sort $(wildcard $(BR2_EXTERNAL_PERFGUIDE_PATH)/package/*/*.mk))
