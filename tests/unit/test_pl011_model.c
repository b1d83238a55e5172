/* SPDX-License-Identifier: MIT */
/* The Normal world's PL011 model: registers as Linux's amba-pl011 driver uses them, the
 * FIFOs, the interrupt output (raised, re-raised while it holds, dropped once), BREAK. */
#include "expect.h"

#include "pl011_access_counts.h"
#include "pl011_model.h"

static struct pl011_model m;
static struct {
    unsigned raised, lowered;
    bool level;
} irq;

static void irq_out(void *ctx, bool level)
{
    EXPECT_EQ(ctx == &irq, 1);
    if (level)
        irq.raised++;
    else
        irq.lowered++;
    irq.level = level;
}

/* the wire behind the fast path: takes bytes while `open` */
static struct {
    bool open;
    unsigned offered;
    char sent[64];
    unsigned n;
} out;

static bool tx_out(void *ctx, uint8_t c)
{
    EXPECT_EQ(ctx == &irq, 1);
    out.offered++;
    if (!out.open)
        return false;
    out.sent[out.n++] = (char)c;
    return true;
}

static int setup(void **state)
{
    memset(&irq, 0, sizeof(irq));
    memset(&out, 0, sizeof(out));
    memset(&m, 0x5a, sizeof(m)); /* init must not depend on what the memory held */
    pl011_model_init(&m, irq_out, &irq);
    return 0;
}

static uint32_t rd(uint32_t off)
{
    return pl011_model_read(&m, off, 4);
}

static void wr(uint32_t off, uint32_t v)
{
    pl011_model_write(&m, off, 4, v);
}

/* What Linux's probe and startup do, in short: FIFOs on, 8N1, enabled. */
static void linux_startup(void)
{
    wr(PL011M_IMSC, 0);
    wr(PL011M_ICR, 0x7ff);
    wr(PL011M_IBRD, 13);
    wr(PL011M_FBRD, 1);
    wr(PL011M_LCR_H, 0x70); /* 8 bits, FIFOs */
    wr(PL011M_IFLS, 0x12);  /* 1/2 both */
    wr(PL011M_CR, PL011M_CR_UARTEN | PL011M_CR_TXE | PL011M_CR_RXE);
}

static void test_id_registers_are_an_arm_pl011s(void **state)
{
    static const uint8_t want[8] = {0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1};

    for (unsigned i = 0; i < 8; i++)
        EXPECT_EQ(rd(PL011M_ID + 4 * i), want[i]);
}

static void test_reset_state_matches_the_trm(void **state)
{
    EXPECT_EQ(rd(PL011M_CR), 0x300);
    EXPECT_EQ(rd(PL011M_IFLS), 0x12);
    EXPECT_EQ(rd(PL011M_FR), PL011M_FR_RXFE | PL011M_FR_TXFE);
    EXPECT_EQ(rd(PL011M_IMSC), 0);
    EXPECT_EQ(rd(PL011M_MIS), 0);
    EXPECT_EQ(rd(PL011M_RSR), 0);
    EXPECT_EQ(irq.raised, 0);
}

static void test_control_registers_read_back_what_was_written(void **state)
{
    linux_startup();
    EXPECT_EQ(rd(PL011M_IBRD), 13);
    EXPECT_EQ(rd(PL011M_FBRD), 1);
    EXPECT_EQ(rd(PL011M_LCR_H), 0x70);
    EXPECT_EQ(rd(PL011M_CR), 0x301);
    wr(PL011M_FBRD, 0xff); /* 6 bits */
    EXPECT_EQ(rd(PL011M_FBRD), 0x3f);
    wr(PL011M_IFLS, 0xffffffff);
    EXPECT_EQ(rd(PL011M_IFLS), 0x3f);
    wr(PL011M_DMACR, 0xff);
    EXPECT_EQ(rd(PL011M_DMACR), 7);
}

static void test_received_bytes_come_out_of_dr_in_order(void **state)
{
    linux_startup();
    pl011_model_rx_push(&m, 'a', 0);
    pl011_model_rx_push(&m, 'b', 0);
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFE, 0);
    EXPECT_EQ(rd(PL011M_DR), 'a');
    EXPECT_EQ(rd(PL011M_DR), 'b');
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFE, PL011M_FR_RXFE);
}

static void test_receive_fifo_holds_32_then_overruns(void **state)
{
    linux_startup();
    EXPECT_EQ(pl011_model_rx_room(&m), 32);
    for (unsigned i = 0; i < 32; i++)
        pl011_model_rx_push(&m, (uint8_t)i, 0);
    EXPECT_EQ(pl011_model_rx_room(&m), 0);
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFF, PL011M_FR_RXFF);
    pl011_model_rx_push(&m, 0xee, 0); /* lost: overrun */
    EXPECT_EQ(rd(PL011M_RIS) & PL011M_INT_OE, PL011M_INT_OE);
    EXPECT_EQ(rd(PL011M_RSR) & 8, 8);
    for (unsigned i = 0; i < 32; i++)
        EXPECT_EQ(rd(PL011M_DR) & 0xff, i);
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFE, PL011M_FR_RXFE);
}

static void test_without_fifos_the_depth_is_one(void **state)
{
    linux_startup();
    wr(PL011M_LCR_H, 0x60);
    EXPECT_EQ(pl011_model_rx_room(&m), 1);
    wr(PL011M_DR, 'x');
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_TXFF, PL011M_FR_TXFF);
    wr(PL011M_DR, 'y'); /* lost, as on the real part */
    EXPECT_EQ(pl011_model_tx_pop(&m), 'x');
    EXPECT_EQ(pl011_model_tx_pop(&m), -1);
}

static void test_a_disabled_receiver_drops_bytes(void **state)
{
    pl011_model_rx_push(&m, 'a', 0); /* UARTEN off at reset */
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFE, PL011M_FR_RXFE);
    linux_startup();
    wr(PL011M_CR, PL011M_CR_UARTEN | PL011M_CR_TXE);
    pl011_model_rx_push(&m, 'a', 0);
    EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_RXFE, PL011M_FR_RXFE);
}

static void test_transmit_fifo_fills_to_txff_and_drains_in_order(void **state)
{
    linux_startup();
    for (unsigned i = 0; i < 32; i++) {
        EXPECT_EQ(rd(PL011M_FR) & PL011M_FR_TXFF, 0);
        wr(PL011M_DR, 'A' + i);
    }
    EXPECT_EQ(rd(PL011M_FR) & (PL011M_FR_TXFF | PL011M_FR_BUSY | PL011M_FR_TXFE),
              PL011M_FR_TXFF | PL011M_FR_BUSY);
    EXPECT_EQ(pl011_model_tx_count(&m), 32);
    EXPECT_EQ(m.tx_lost, 0);
    wr(PL011M_DR, '!'); /* a full transmitter loses it, and says so */
    EXPECT_EQ(m.tx_lost, 1);
    for (unsigned i = 0; i < 32; i++)
        EXPECT_EQ(pl011_model_tx_pop(&m), 'A' + i);
    EXPECT_EQ(pl011_model_tx_pop(&m), -1);
    EXPECT_EQ(rd(PL011M_FR) & (PL011M_FR_TXFE | PL011M_FR_BUSY), PL011M_FR_TXFE);
}

static void test_a_disabled_transmitter_holds_its_bytes(void **state)
{
    linux_startup();
    wr(PL011M_DR, 'q');
    wr(PL011M_CR, PL011M_CR_UARTEN | PL011M_CR_RXE);
    EXPECT_EQ(pl011_model_tx_pop(&m), -1);
    wr(PL011M_CR, PL011M_CR_UARTEN | PL011M_CR_TXE | PL011M_CR_RXE);
    EXPECT_EQ(pl011_model_tx_pop(&m), 'q');
}

static void test_loopback_sends_to_the_receiver(void **state)
{
    linux_startup();
    wr(PL011M_CR, PL011M_CR_UARTEN | PL011M_CR_TXE | PL011M_CR_RXE | PL011M_CR_LBE);
    wr(PL011M_DR, 'L');
    EXPECT_EQ(pl011_model_tx_pop(&m), -1); /* nothing for the wire */
    EXPECT_EQ(rd(PL011M_DR), 'L');
}

static void test_rx_interrupt_at_the_trigger_level_and_timeout_below_it(void **state)
{
    linux_startup();
    wr(PL011M_IMSC, PL011M_INT_RX | PL011M_INT_RT);
    for (unsigned i = 0; i < 15; i++)
        pl011_model_rx_push(&m, 'x', 0);
    EXPECT_EQ(rd(PL011M_MIS), 0); /* 15 < 16 */
    EXPECT_EQ(irq.raised, 0);
    pl011_model_rx_push(&m, 'x', 0);
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_RX);
    EXPECT_EQ(irq.level, true);
    for (unsigned i = 0; i < 10; i++)
        rd(PL011M_DR);
    EXPECT_EQ(rd(PL011M_MIS), 0); /* 6 left: below the level, no timeout yet */
    EXPECT_EQ(irq.level, false);
    EXPECT_EQ(irq.lowered, 1);
    pl011_model_rx_idle(&m);
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_RT);
    EXPECT_EQ(irq.level, true);
    while (!(rd(PL011M_FR) & PL011M_FR_RXFE))
        rd(PL011M_DR);
    EXPECT_EQ(rd(PL011M_MIS), 0); /* an empty FIFO ends the timeout */
    EXPECT_EQ(irq.level, false);
}

static void test_idle_with_nothing_received_raises_nothing(void **state)
{
    linux_startup();
    wr(PL011M_IMSC, PL011M_INT_RT);
    pl011_model_rx_idle(&m);
    EXPECT_EQ(rd(PL011M_RIS) & PL011M_INT_RT, 0);
    EXPECT_EQ(irq.raised, 0);
}

static void test_tx_interrupt_follows_the_fifo_level(void **state)
{
    linux_startup();
    wr(PL011M_ICR, PL011M_INT_TX);
    EXPECT_EQ(rd(PL011M_RIS) & PL011M_INT_TX, 0); /* cleared until the level changes */
    wr(PL011M_IMSC, PL011M_INT_TX);
    for (unsigned i = 0; i < 17; i++)
        wr(PL011M_DR, 'x');
    EXPECT_EQ(rd(PL011M_MIS), 0); /* 17 > 16 */
    EXPECT_EQ(irq.level, false);
    pl011_model_tx_pop(&m);
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_TX); /* 16: at the level */
    EXPECT_EQ(irq.level, true);
    wr(PL011M_IMSC, 0); /* the driver's stop_tx */
    EXPECT_EQ(irq.level, false);
}

static void test_the_output_is_re_raised_while_it_holds_and_dropped_once(void **state)
{
    linux_startup();
    wr(PL011M_IMSC, PL011M_INT_RX | PL011M_INT_RT);
    pl011_model_rx_push(&m, 'x', 0);
    pl011_model_rx_idle(&m);
    unsigned before = irq.raised;
    rd(PL011M_MIS); /* the kernel's handler: each access re-raises while asserted */
    rd(PL011M_MIS);
    EXPECT_EQ(irq.raised, before + 2);
    rd(PL011M_DR);
    EXPECT_EQ(irq.lowered, 1);
    rd(PL011M_MIS);
    rd(PL011M_FR);
    EXPECT_EQ(irq.lowered, 1); /* once, when it drops */
    EXPECT_EQ(irq.raised, before + 2);
}

static void test_icr_clears_and_mis_is_masked_ris(void **state)
{
    linux_startup();
    pl011_model_rx_push(&m, 'x', PL011M_DR_FE);
    EXPECT_EQ(rd(PL011M_RIS) & PL011M_INT_FE, PL011M_INT_FE);
    EXPECT_EQ(rd(PL011M_MIS), 0);
    wr(PL011M_IMSC, PL011M_INT_FE);
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_FE);
    wr(PL011M_ICR, PL011M_INT_FE);
    EXPECT_EQ(rd(PL011M_MIS), 0);
    EXPECT_EQ(irq.level, false);
}

static void test_break_arrives_as_a_zero_with_be_in_dr_and_rsr(void **state)
{
    linux_startup();
    wr(PL011M_IMSC, PL011M_INT_BE);
    pl011_model_rx_push(&m, 0, PL011M_DR_BE);
    pl011_model_rx_push(&m, 't', 0);
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_BE);
    EXPECT_EQ(irq.level, true);
    EXPECT_EQ(rd(PL011M_DR), PL011M_DR_BE); /* data 0, break bit */
    EXPECT_EQ(rd(PL011M_RSR), 4);
    wr(PL011M_RSR, 0); /* ECR */
    EXPECT_EQ(rd(PL011M_RSR), 0);
    EXPECT_EQ(rd(PL011M_DR), 't');
    EXPECT_EQ(rd(PL011M_RSR), 0);
}

static void test_narrow_accesses(void **state)
{
    linux_startup();
    pl011_model_rx_push(&m, 0x41, PL011M_DR_PE);
    EXPECT_EQ(pl011_model_read(&m, PL011M_FR, 2), PL011M_FR_TXFE);
    EXPECT_EQ(pl011_model_read(&m, PL011M_DR, 2), 0x241);
    EXPECT_EQ(pl011_model_read(&m, PL011M_CR + 1, 1), 0x03);
    pl011_model_write(&m, PL011M_CR + 1, 1, 0); /* upper byte alone: ignored */
    EXPECT_EQ(rd(PL011M_CR), 0x301);
    pl011_model_write(&m, PL011M_DR, 1, 'z');
    EXPECT_EQ(pl011_model_tx_pop(&m), 'z');
}

static void test_switching_fifos_flushes_them(void **state)
{
    linux_startup();
    pl011_model_rx_push(&m, 'a', 0);
    wr(PL011M_DR, 'b');
    wr(PL011M_LCR_H, 0x60);
    EXPECT_EQ(rd(PL011M_FR), PL011M_FR_RXFE | PL011M_FR_TXFE);
    EXPECT_EQ(m.tx_lost, 1);
}

static void test_an_empty_transmitter_sends_a_byte_straight_out(void **state)
{
    linux_startup();
    pl011_model_set_tx_out(&m, tx_out);
    out.open = true;
    for (const char *p = "hello"; *p; p++) {
        EXPECT_EQ(rd(PL011M_FR) & (PL011M_FR_TXFF | PL011M_FR_BUSY | PL011M_FR_TXFE),
                  PL011M_FR_TXFE);
        wr(PL011M_DR, (uint8_t)*p);
    }
    EXPECT_STR_EQ(out.sent, "hello");
    EXPECT_EQ(pl011_model_tx_count(&m), 0); /* nothing went through the FIFO */
    EXPECT_EQ(pl011_model_tx_pop(&m), -1);
    EXPECT_EQ(rd(PL011M_FR) & (PL011M_FR_BUSY | PL011M_FR_TXFE), PL011M_FR_TXFE);
}

static void test_a_byte_queues_behind_one_that_waits(void **state)
{
    linux_startup();
    pl011_model_set_tx_out(&m, tx_out);
    wr(PL011M_DR, 'a'); /* refused (the wire is busy): waits in the FIFO */
    out.open = true;
    wr(PL011M_DR, 'b'); /* not offered: 'a' is ahead of it */
    EXPECT_EQ(out.offered, 1);
    EXPECT_EQ(pl011_model_tx_count(&m), 2);
    EXPECT_EQ(pl011_model_tx_pop(&m), 'a');
    EXPECT_EQ(pl011_model_tx_pop(&m), 'b');
    wr(PL011M_DR, 'c'); /* empty again: straight out */
    EXPECT_STR_EQ(out.sent, "c");
}

static void test_nothing_goes_straight_out_unless_the_transmitter_sends(void **state)
{
    static const uint32_t crs[] = {
        PL011M_CR_TXE | PL011M_CR_RXE,                                     /* UARTEN off */
        PL011M_CR_UARTEN | PL011M_CR_RXE,                                  /* TXE off */
        PL011M_CR_UARTEN | PL011M_CR_TXE | PL011M_CR_RXE | PL011M_CR_LBE,  /* loopback */
    };

    for (unsigned i = 0; i < sizeof(crs) / sizeof(crs[0]); i++) {
        setup(state);
        linux_startup();
        pl011_model_set_tx_out(&m, tx_out);
        out.open = true;
        wr(PL011M_CR, crs[i]);
        wr(PL011M_DR, 'x');
        EXPECT_EQ(out.offered, 0);
        EXPECT_EQ(pl011_model_tx_count(&m), 1); /* in the FIFO, as before */
    }
    EXPECT_EQ(pl011_model_tx_pop(&m), -1);
    EXPECT_EQ(rd(PL011M_DR), 'x'); /* the loopback's receiver has it */
}

static void test_straight_out_leaves_the_tx_interrupt_as_a_pop_would(void **state)
{
    linux_startup();
    wr(PL011M_LCR_H, 0x60); /* no FIFO: TX asserts only when it is empty */
    pl011_model_set_tx_out(&m, tx_out);
    out.open = true;
    wr(PL011M_IMSC, PL011M_INT_TX);
    wr(PL011M_ICR, PL011M_INT_TX);
    EXPECT_EQ(rd(PL011M_MIS), 0);
    wr(PL011M_DR, 'x'); /* sent and gone: empty again, as after a pop */
    EXPECT_EQ(rd(PL011M_MIS), PL011M_INT_TX);
    EXPECT_EQ(irq.level, true);
}

static void test_accesses_are_counted_by_register(void **state)
{
    /* what the polled console does per byte (FR, DR), then the rest at any width */
    static const struct {
        bool write;
        uint32_t offset;
    } seq[] = {
        {false, PL011M_FR}, {true, PL011M_DR}, {false, PL011M_FR}, {true, PL011M_DR},
        {false, PL011M_DR}, {false, PL011M_DR + 1}, {false, PL011M_CR}, {true, PL011M_CR},
        {true, PL011M_ICR}, {false, PL011M_ID}, {true, PL011M_FR}, {false, PL011M_FR + 2},
    };
    struct pl011_access_counts c = {0};

    for (unsigned i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
        pl011_access_count(&c, seq[i].write, seq[i].offset);
    EXPECT_EQ(c.fr_reads, 3);
    EXPECT_EQ(c.dr_writes, 2);
    EXPECT_EQ(c.dr_reads, 2);
    EXPECT_EQ(c.other_reads, 2);  /* CR, an ID register */
    EXPECT_EQ(c.other_writes, 3); /* CR, ICR, and FR (read-only: not the console's FR read) */
    EXPECT_EQ(pl011_access_total(&c), 12);
    EXPECT_EQ(c.irqs_raised, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
    const struct CMUnitTest tests[] = {
        T(test_id_registers_are_an_arm_pl011s),
        T(test_reset_state_matches_the_trm),
        T(test_control_registers_read_back_what_was_written),
        T(test_received_bytes_come_out_of_dr_in_order),
        T(test_receive_fifo_holds_32_then_overruns),
        T(test_without_fifos_the_depth_is_one),
        T(test_a_disabled_receiver_drops_bytes),
        T(test_transmit_fifo_fills_to_txff_and_drains_in_order),
        T(test_a_disabled_transmitter_holds_its_bytes),
        T(test_loopback_sends_to_the_receiver),
        T(test_rx_interrupt_at_the_trigger_level_and_timeout_below_it),
        T(test_idle_with_nothing_received_raises_nothing),
        T(test_tx_interrupt_follows_the_fifo_level),
        T(test_the_output_is_re_raised_while_it_holds_and_dropped_once),
        T(test_icr_clears_and_mis_is_masked_ris),
        T(test_break_arrives_as_a_zero_with_be_in_dr_and_rsr),
        T(test_narrow_accesses),
        T(test_switching_fifos_flushes_them),
        T(test_an_empty_transmitter_sends_a_byte_straight_out),
        T(test_a_byte_queues_behind_one_that_waits),
        T(test_nothing_goes_straight_out_unless_the_transmitter_sends),
        T(test_straight_out_leaves_the_tx_interrupt_as_a_pop_would),
        T(test_accesses_are_counted_by_register),
    };

    return cmocka_run_group_tests_name("pl011_model", tests, NULL, NULL);
}
