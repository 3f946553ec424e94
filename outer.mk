all:
	@$(MAKE) -s -f outer.mk suite TEST_LOGS="x.log y.log package.log"
suite:
	@env -i PATH=$$PATH MAKEFLAGS="$$MAKEFLAGS" make -s -f inner.mk check-unit
