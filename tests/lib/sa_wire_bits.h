/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PathRecord and MultiPathRecord component-mask bits and byte offsets as
 * the SA tests spell them (IBA 1.2.1 15.2.5.16 and 15.2.5.20), on purpose
 * apart from osmqos/sa_path.h and osmqos/wire.h: a wrong constant there
 * fails a test instead of agreeing with itself.
 */
#ifndef OSMQOS_TEST_SA_WIRE_BITS_H
#define OSMQOS_TEST_SA_WIRE_BITS_H

/* PathRecord comp-mask bits. */
#define CM_SID	    (3ull << 0)
#define CM_SID_MSB  (1ull << 0)
#define CM_DGID	    (1ull << 2)
#define CM_SGID	    (1ull << 3)
#define CM_DLID	    (1ull << 4)
#define CM_SLID	    (1ull << 5)
#define CM_RAW	    (1ull << 6)
#define CM_REVERS   (1ull << 11)
#define CM_NUMBPATH (1ull << 12)
#define CM_PKEY	    (1ull << 13)
#define CM_QOSCLASS (1ull << 14)
#define CM_SL	    (1ull << 15)
#define CM_MTUSEL   (1ull << 16)
#define CM_MTU	    (1ull << 17)
#define CM_RATESEL  (1ull << 18)
#define CM_RATE	    (1ull << 19)
#define CM_LIFESEL  (1ull << 20)
#define CM_LIFE	    (1ull << 21)
#define CM_GIDS	    (CM_SGID | CM_DGID)

/* MultiPathRecord comp-mask bits. */
#define MCM_RAW	      (1ull << 0)
#define MCM_REVERS    (1ull << 5)
#define MCM_NUMBPATH  (1ull << 6)
#define MCM_PKEY      (1ull << 7)
#define MCM_QOSCLASS  (1ull << 8)
#define MCM_SL	      (1ull << 9)
#define MCM_MTUSEL    (1ull << 10)
#define MCM_MTU	      (1ull << 11)
#define MCM_RATESEL   (1ull << 12)
#define MCM_RATE      (1ull << 13)
#define MCM_SID_MSB   (1ull << 16)
#define MCM_SGIDCOUNT (1ull << 19)
#define MCM_DGIDCOUNT (1ull << 20)
#define MCM_SID	      ((1ull << 16) | (1ull << 21))
#define MCM_COUNTS    (MCM_SGIDCOUNT | MCM_DGIDCOUNT)

/* PathRecord offsets. */
#define PR_SID	   0
#define PR_DGID	   8
#define PR_SGID	   24
#define PR_DLID	   40
#define PR_SLID	   42
#define PR_HFR	   44
#define PR_NUMPATH 49
#define PR_PKEY	   50
#define PR_QOS_SL  52
#define PR_MTU	   54
#define PR_RATE	   55
#define PR_LIFE	   56
#define PR_PREF	   57

/* MultiPathRecord offsets. */
#define MPR_NUMPATH   5
#define MPR_PKEY      6
#define MPR_QOS_SL    8
#define MPR_SID_MSB   13
#define MPR_SGIDCOUNT 15
#define MPR_DGIDCOUNT 16
#define MPR_SID_LSB   17
#define MPR_GIDS      24

#endif /* OSMQOS_TEST_SA_WIRE_BITS_H */
