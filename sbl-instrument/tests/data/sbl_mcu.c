/* A minimal R5F MCU+ SDK-style SBL with the documented gProfileObj layout. */
#include <stdint.h>

#define BOOTLOADER_PROFILE_MAX_LOGS 32
typedef struct { char *pName; uint32_t cycleCount; } Bootloader_ProfileInfo;
typedef struct {
    uint32_t logIndex;
    Bootloader_ProfileInfo info[BOOTLOADER_PROFILE_MAX_LOGS];
    uint32_t appimageSize;
    uint32_t bootMediaID;
    uint32_t bootMediaClk;
    uint32_t numCores;
    uint8_t coresPresent[16];
} Bootloader_ProfileObject;

Bootloader_ProfileObject gProfileObj;

static inline uint32_t cycles(void)
{
    uint32_t v;
    __asm__ volatile("mrc p15, 0, %0, c9, c13, 0" : "=r"(v));
    return v;
}

void Bootloader_profileAddProfilePoint(char *name)
{
    if (gProfileObj.logIndex < BOOTLOADER_PROFILE_MAX_LOGS) {
        gProfileObj.info[gProfileObj.logIndex].pName = name;
        gProfileObj.info[gProfileObj.logIndex].cycleCount = cycles();
        gProfileObj.logIndex++;
    }
}

void Bootloader_profilePrintProfileLog(void) { }

int main(void)
{
    Bootloader_profileAddProfilePoint("SBL Start");
    Bootloader_profileAddProfilePoint("System_init");
    Bootloader_profileAddProfilePoint("Drivers_open");
    Bootloader_profileAddProfilePoint("Board_driversOpen");
    Bootloader_profileAddProfilePoint("Sciclient Get Version");
    Bootloader_profileAddProfilePoint("App_loadImages");
    Bootloader_profilePrintProfileLog();
    for (;;) { }
}
