/* SPDX-License-Identifier: MIT */
#include "pl011_model.h"

/* The PrimeCell IDs of an ARM PL011 r1p5, as QEMU's gives them (Linux matches on them). */
static const uint8_t pl011_id[8] = {0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1};

static unsigned depth(const struct pl011_model *m)
{
    return m->lcr_h & PL011M_LCR_H_FEN ? PL011M_FIFO : 1u;
}

/* IFLS levels for 32 entries: 1/8, 1/4, 1/2, 3/4, 7/8 */
static unsigned level(const struct pl011_model *m, unsigned sel)
{
    static const uint8_t eighths[8] = {1, 2, 4, 6, 7, 7, 7, 7};

    return m->lcr_h & PL011M_LCR_H_FEN ? eighths[sel & 7u] * PL011M_FIFO / 8u : 1u;
}

static void update_irq(struct pl011_model *m)
{
    bool level_now = (m->ris & m->imsc) != 0;

    if ((level_now || m->irq_level) && m->irq)
        m->irq(m->ctx, level_now);
    m->irq_level = level_now;
}

/* RX and TX interrupts follow the FIFO levels: asserted at or past the trigger level,
 * cleared when the FIFO moves back (or by ICR until the next change). */
static void rx_levels(struct pl011_model *m)
{
    if (m->rx_count >= level(m, m->ifls >> 3))
        m->ris |= PL011M_INT_RX;
    else
        m->ris &= (uint16_t)~PL011M_INT_RX;
    if (!m->rx_count)
        m->ris &= (uint16_t)~PL011M_INT_RT;
}

static void tx_levels(struct pl011_model *m)
{
    unsigned trigger = m->lcr_h & PL011M_LCR_H_FEN ? level(m, m->ifls) : 0u;

    if (m->tx_count <= trigger)
        m->ris |= PL011M_INT_TX;
    else
        m->ris &= (uint16_t)~PL011M_INT_TX;
}

void pl011_model_init(struct pl011_model *m, void (*irq)(void *ctx, bool level), void *ctx)
{
    *m = (struct pl011_model){0};
    m->cr = PL011M_CR_TXE | PL011M_CR_RXE;
    m->ifls = 0x12;
    m->irq = irq;
    m->ctx = ctx;
    tx_levels(m); /* an empty transmitter is at or below any trigger level */
}

static uint32_t read_dr(struct pl011_model *m)
{
    uint32_t v;

    if (!m->rx_count)
        return 0;
    v = m->rx[m->rx_first];
    m->rx_first = (uint8_t)((m->rx_first + 1u) % PL011M_FIFO);
    m->rx_count--;
    m->rsr = (uint8_t)((v >> 8) & 0xfu);
    rx_levels(m);
    return v;
}

static uint32_t read_reg(struct pl011_model *m, uint32_t reg)
{
    switch (reg) {
    case PL011M_DR:
        return read_dr(m);
    case PL011M_RSR:
        return m->rsr;
    case PL011M_FR:
        return (m->rx_count ? 0 : PL011M_FR_RXFE) |
               (m->rx_count >= depth(m) ? PL011M_FR_RXFF : 0) |
               (m->tx_count >= depth(m) ? PL011M_FR_TXFF : 0) |
               (m->tx_count ? PL011M_FR_BUSY : PL011M_FR_TXFE);
    case PL011M_ILPR:
        return m->ilpr;
    case PL011M_IBRD:
        return m->ibrd;
    case PL011M_FBRD:
        return m->fbrd;
    case PL011M_LCR_H:
        return m->lcr_h;
    case PL011M_CR:
        return m->cr;
    case PL011M_IFLS:
        return m->ifls;
    case PL011M_IMSC:
        return m->imsc;
    case PL011M_RIS:
        return m->ris;
    case PL011M_MIS:
        return m->ris & m->imsc;
    case PL011M_DMACR:
        return m->dmacr;
    default:
        if (reg >= PL011M_ID && reg < PL011M_ID + 32)
            return pl011_id[(reg - PL011M_ID) / 4];
        return 0;
    }
}

void pl011_model_set_tx_out(struct pl011_model *m, bool (*tx_out)(void *ctx, uint8_t c))
{
    m->tx_out = tx_out;
}

static bool tx_sends(const struct pl011_model *m)
{
    return (m->cr & (PL011M_CR_UARTEN | PL011M_CR_TXE | PL011M_CR_LBE)) ==
           (PL011M_CR_UARTEN | PL011M_CR_TXE);
}

static void write_dr(struct pl011_model *m, uint8_t c)
{
    if (!m->tx_count && m->tx_out && tx_sends(m) && m->tx_out(m->ctx, c)) {
        tx_levels(m); /* in and out at once: the level is the empty FIFO's */
        return;
    }
    if (m->tx_count >= depth(m)) {
        m->tx_lost++; /* a full transmitter loses the byte, as the real one would */
        return;
    }
    m->tx[(m->tx_first + m->tx_count) % PL011M_FIFO] = c;
    m->tx_count++;
    tx_levels(m);
}

static void write_reg(struct pl011_model *m, uint32_t reg, uint32_t v)
{
    switch (reg) {
    case PL011M_DR:
        write_dr(m, (uint8_t)v);
        break;
    case PL011M_RSR:
        m->rsr = 0; /* ECR: any write clears the errors */
        break;
    case PL011M_ILPR:
        m->ilpr = (uint16_t)(v & 0xffu);
        break;
    case PL011M_IBRD:
        m->ibrd = (uint16_t)v;
        break;
    case PL011M_FBRD:
        m->fbrd = (uint16_t)(v & 0x3fu);
        break;
    case PL011M_LCR_H:
        /* switching the FIFOs on or off empties them (the TRM: flushed) */
        if ((v ^ m->lcr_h) & PL011M_LCR_H_FEN) {
            m->tx_lost += m->tx_count;
            m->rx_count = m->tx_count = 0;
        }
        m->lcr_h = (uint16_t)(v & 0xffu);
        rx_levels(m);
        tx_levels(m);
        break;
    case PL011M_CR:
        m->cr = (uint16_t)(v & 0xff87u);
        break;
    case PL011M_IFLS:
        m->ifls = (uint16_t)(v & 0x3fu);
        rx_levels(m);
        tx_levels(m);
        break;
    case PL011M_IMSC:
        m->imsc = (uint16_t)(v & PL011M_INT_ALL);
        break;
    case PL011M_ICR:
        m->ris &= (uint16_t)~(v & PL011M_INT_ALL);
        break;
    case PL011M_DMACR:
        m->dmacr = (uint16_t)(v & 7u);
        break;
    default:
        break; /* read-only or reserved */
    }
}

uint32_t pl011_model_read(struct pl011_model *m, uint32_t offset, unsigned width)
{
    unsigned shift = (offset & 3u) * 8u;
    uint32_t v = read_reg(m, offset & 0xffcu) >> shift;

    update_irq(m);
    return width == 4 ? v : v & ((1u << (width * 8u)) - 1u);
}

void pl011_model_write(struct pl011_model *m, uint32_t offset, unsigned width, uint32_t value)
{
    /* registers are written whole: a narrow write to a register's upper bytes is ignored */
    if (offset & 3u)
        return;
    write_reg(m, offset & 0xffcu, width == 4 ? value : value & ((1u << (width * 8u)) - 1u));
    update_irq(m);
}

unsigned pl011_model_rx_room(const struct pl011_model *m)
{
    return depth(m) - m->rx_count;
}

void pl011_model_rx_push(struct pl011_model *m, uint8_t c, uint32_t status)
{
    if (!(m->cr & PL011M_CR_UARTEN) || !(m->cr & PL011M_CR_RXE))
        return;
    if (m->rx_count >= depth(m)) {
        m->rsr |= PL011M_DR_OE >> 8;
        m->ris |= PL011M_INT_OE;
    } else {
        m->rx[(m->rx_first + m->rx_count) % PL011M_FIFO] =
            (uint16_t)(c | (status & (PL011M_DR_FE | PL011M_DR_PE | PL011M_DR_BE)));
        m->rx_count++;
        if (status & PL011M_DR_FE)
            m->ris |= PL011M_INT_FE;
        if (status & PL011M_DR_PE)
            m->ris |= PL011M_INT_PE;
        if (status & PL011M_DR_BE)
            m->ris |= PL011M_INT_BE;
        rx_levels(m);
    }
    update_irq(m);
}

void pl011_model_rx_idle(struct pl011_model *m)
{
    if (m->rx_count)
        m->ris |= PL011M_INT_RT;
    update_irq(m);
}

static int tx_take(struct pl011_model *m)
{
    int c = m->tx[m->tx_first];

    m->tx_first = (uint8_t)((m->tx_first + 1u) % PL011M_FIFO);
    m->tx_count--;
    tx_levels(m);
    return c;
}

int pl011_model_tx_pop(struct pl011_model *m)
{
    if (!m->tx_count || !(m->cr & PL011M_CR_UARTEN) || !(m->cr & PL011M_CR_TXE))
        return -1;
    if (m->cr & PL011M_CR_LBE) { /* loopback: what is sent is received, not the wire's */
        while (m->tx_count)
            pl011_model_rx_push(m, (uint8_t)tx_take(m), 0);
        return -1;
    }
    int c = tx_take(m);
    update_irq(m);
    return c;
}

unsigned pl011_model_tx_count(const struct pl011_model *m)
{
    return m->tx_count;
}
