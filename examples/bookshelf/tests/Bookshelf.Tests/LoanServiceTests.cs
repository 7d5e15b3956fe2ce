using Bookshelf.Api.Exceptions;
using Bookshelf.Api.Services;
using FluentAssertions;
using Xunit;

namespace Bookshelf.Tests;

public class LoanServiceTests
{
    [Fact]
    public void LateFee_IsZeroWhenReturnedOnTime()
    {
        LoanService.LateFee(0).Should().Be(0m);
    }

    [Fact]
    public void LateFee_GrowsPerDay()
    {
        LoanService.LateFee(4).Should().Be(1.00m);
    }

    [Fact]
    public void Borrow_RejectsAFourthLoan()
    {
        var service = TestLibrary.WithLoans(memberId: 7, open: 3);
        var act = () => service.Borrow(7, 42);
        act.Should().Throw<LoanLimitExceededException>();
    }
}
