include $(sort $(wildcard $(BR2_EXTERNAL_PERFGUIDE_PATH)/package/*/*.mk))
