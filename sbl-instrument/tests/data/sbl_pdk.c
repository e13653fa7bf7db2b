/* A minimal R5F "SBL" with the TI PDK profile-log layout (written for the sbl-instrument
 * tests from the documented layout, not from PDK sources): sblProfileLog[] of 12-byte
 * entries, the index/overflow counters and the exported pointers in .sbl_profile_info. */
#include <stdint.h>

#define MAX_PROFILE_LOG_ENTRIES 256
typedef struct sblProfileInfo {
    uint8_t *fxn;
    uint32_t line;
    uint32_t cycle_cnt;
} sblProfileInfo_t;

sblProfileInfo_t sblProfileLog[MAX_PROFILE_LOG_ENTRIES];
uint32_t sblProfileLogIndx = 0, sblProfileLogOvrFlw = 0;

__attribute__((section(".sbl_profile_info"))) volatile sblProfileInfo_t *sblProfileLogAddr;
__attribute__((section(".sbl_profile_info"))) volatile uint32_t *sblProfileLogIndxAddr;
__attribute__((section(".sbl_profile_info"))) volatile uint32_t *sblProfileLogOvrFlwAddr;

/* Initialised data a build engineer would patch. */
volatile uint32_t sbl_log_level = 2;
/* Zero-initialised but kept in .data (not .bss) so the flag has bytes in the image to patch. */
__attribute__((section(".data"))) volatile uint8_t sbl_enable_profile_print = 0;
volatile int16_t sbl_boot_delay_ms = -5;
volatile char sbl_banner[16] = "SBL v1";
volatile uint32_t sbl_scratch_bss[4];

static inline uint32_t pmu_cycles(void)
{
    uint32_t v;
    __asm__ volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));
    return v;
}

void SBL_LogCycleCount(uint8_t *fxn, uint32_t line)
{
    uint32_t i = sblProfileLogIndx % MAX_PROFILE_LOG_ENTRIES;
    sblProfileLog[i].fxn = fxn;
    sblProfileLog[i].line = line;
    sblProfileLog[i].cycle_cnt = pmu_cycles();
    if (sblProfileLogIndx == MAX_PROFILE_LOG_ENTRIES)
        sblProfileLogOvrFlw = 1;
    sblProfileLogIndx++;
}

#define SBL_ADD_PROFILE_POINT SBL_LogCycleCount(((uint8_t *)__func__), __LINE__)

void SBL_printProfileLog(void) { }

void System_init(void) { SBL_ADD_PROFILE_POINT; }
void Board_init(void) { SBL_ADD_PROFILE_POINT; }
void SBL_ReadSysfwImage(void) { SBL_ADD_PROFILE_POINT; }
void SBL_BootImage(void) { SBL_ADD_PROFILE_POINT; }

int main(void)
{
    SBL_ADD_PROFILE_POINT;
    System_init();
    Board_init();
    SBL_ReadSysfwImage();
    SBL_BootImage();
    sblProfileLogAddr = sblProfileLog;
    sblProfileLogIndxAddr = &sblProfileLogIndx;
    sblProfileLogOvrFlwAddr = &sblProfileLogOvrFlw;
    if (sbl_enable_profile_print)
        SBL_printProfileLog();
    for (;;) { }
}
