/* A minimal AArch64 bare-metal image for the tests. */
const char version_string[] = "perfguide-test A53 image 1.0";
volatile unsigned long counter = 7;
unsigned long scratch[64];

void _start(void)
{
    for (;;) {
        counter += version_string[counter & 15];
        scratch[counter & 63] = counter;
    }
}
